// Host twin of the lenet5_int8 firmware test: checks optimized == reference on every layer, then
// prints the per-layer hashes and the logits, lines the target must print too.
#include <cstdio>
#include <memory>

#include "lenet5_int8.hpp"

int main() {
  namespace l = ctnn_fw::lenet5;
  auto t = std::make_unique<l::tensors>();
  auto opt = std::make_unique<l::activations>();
  auto ref = std::make_unique<l::activations>();
  auto scratch = std::make_unique<unsigned char[]>(l::scratch_bytes + 64);
  void* aligned = scratch.get() + (64 - reinterpret_cast<uintptr_t>(scratch.get()) % 64) % 64;
  l::make_tensors(*t);
  if (const int r = l::run<true>(*t, *opt, aligned); r != 0) return r;
  if (const int r = l::run<false>(*t, *ref, nullptr); r != 0) return r;
  if (const int r = l::compare(*opt, *ref); r != 0) return r;
  if (!l::logits_vary(*opt)) return 300;
  uint32_t h[7];
  l::layer_hashes(*opt, h);
  for (int i = 0; i < 7; ++i) std::printf("lenet5: %s fnv1a=0x%08x\n", l::layer_names[i], static_cast<unsigned>(h[i]));
  std::printf("lenet5: logits");
  for (int8_t v : opt->fc3) std::printf(" %d", static_cast<int>(v));
  std::printf("\n");
  return 0;
}
