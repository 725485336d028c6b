// Unit tests of the host report: the JSON carries every key tools depend on, one entry per leaf.
#include <doctest/doctest.h>

#include <string>

#include "ctnn/host/memory_svg.hpp"
#include "ctnn/host/report.hpp"
#include "ctnn/zoo/zoo.hpp"

#include "test_text.hpp"

using namespace ctnn;

namespace {
using ctnn_test::count;
}  // namespace

TEST_CASE("json has the documented keys and one layer object per leaf") {
  const host::report r = host::make_report<zoo::resnet18>(dtype::int8);
  const std::string j = host::to_json(r);
  for (const char* key : {"\"model\"", "\"dtype\"", "\"input_shape\"", "\"output_shape\"", "\"params_total\"",
                          "\"weight_bytes\"", "\"macs_conv_linear\"", "\"macs_total\"", "\"activation_bytes_sum\"",
                          "\"peak_io_bytes\"", "\"arena_bytes\"", "\"arena_lower_bound_bytes\"", "\"layers\""})
    CHECK_MESSAGE(count(j, std::string("\n  ") + key + ":") == 1, key);
  for (const char* key : {"\"name\"", "\"type\"", "\"input_shape\"", "\"output_shape\"", "\"params\"", "\"macs\"",
                          "\"output_bytes\"", "\"read_bytes\"", "\"write_bytes\""})
    CHECK_MESSAGE(count(j, key) >= zoo::resnet18::leaf_count, key);
  CHECK(count(j, "\"index\"") == zoo::resnet18::leaf_count);
  CHECK(j.find("\"params_total\": 11689512") != std::string::npos);
  CHECK(j.find("\"dtype\": \"int8\"") != std::string::npos);
  CHECK(j.find("\"name\": \"layer1.0.0.0\"") != std::string::npos);
}

TEST_CASE("table and csv") {
  const host::report r = host::make_report<zoo::lenet5>(dtype::float32);
  const std::string t = host::to_table(r);
  CHECK(t.find("Total params: 61,706") != std::string::npos);
  CHECK(t.find("Conv2d (conv1): 1-1") != std::string::npos);
  const std::string c = host::to_csv(r);
  CHECK(count(c, "\n") == zoo::lenet5::leaf_count + 1);
  CHECK(c.find("0,conv1,Conv2d,1,1x32x32,6x28x28,156,0,117600,4704,18816,") == 0 + c.find('\n') + 1);
}

TEST_CASE("number formatting") {
  CHECK(host::grouped(0) == "0");
  CHECK(host::grouped(999) == "999");
  CHECK(host::grouped(1000) == "1,000");
  CHECK(host::grouped(61100840) == "61,100,840");
  CHECK(host::shape_text(shape{3, 224, 224}) == "[1, 3, 224, 224]");
  CHECK(host::shape_text(features(10)) == "[1, 10]");
}

TEST_CASE("the memory picture has a box per tensor and scratch, and the peak marked") {
  const host::report r = host::make_report<zoo::resnet18>(dtype::int8);
  const std::string svg = host::memory_svg(r);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(count(svg, "<rect") == 3 + static_cast<int>(r.memory.boxes.size()));  // background, hatch, frame
  CHECK(count(svg, "network input") == 1);
  CHECK(svg.find("peak: " + host::grouped(r.memory.lower_bound_bytes) + " bytes at step " +
                 std::to_string(r.memory.peak_step)) != std::string::npos);
  CHECK(r.memory.arena_bytes == memory::plan_of<zoo::resnet18, dtype::int8>.arena_bytes);
  CHECK(host::to_table(r).find("Arena, planned at compile time (bytes): " + host::grouped(r.memory.arena_bytes)) !=
        std::string::npos);
}
