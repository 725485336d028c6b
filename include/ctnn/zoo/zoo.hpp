// The model zoo: every model as a type, and the list of them by name.
#pragma once
#include "ctnn/zoo/alexnet.hpp"
#include "ctnn/zoo/cifar_resnet.hpp"
#include "ctnn/zoo/googlenet.hpp"
#include "ctnn/zoo/lenet5.hpp"
#include "ctnn/zoo/mobilenet_v2.hpp"
#include "ctnn/zoo/resnet.hpp"
#include "ctnn/zoo/vgg16.hpp"

namespace ctnn::zoo {

/// Calls f.template operator()<Model>(name) for every zoo model, in a fixed order (the published
/// models; cifar_resnet, the firmware demo network, is not one of them).
template <class F>
constexpr void for_each_model(F&& f) {
  f.template operator()<lenet5>("lenet5");
  f.template operator()<alexnet>("alexnet");
  f.template operator()<vgg16>("vgg16");
  f.template operator()<googlenet>("googlenet");
  f.template operator()<resnet18>("resnet18");
  f.template operator()<resnet50>("resnet50");
  f.template operator()<mobilenet_v2>("mobilenet_v2");
}

inline constexpr int model_count = 7;

}  // namespace ctnn::zoo
