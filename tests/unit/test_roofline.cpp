// Unit tests of the host roofline: its arithmetic on given times and roofs (no timing is
// asserted), the SVG's dots and roofs, the CPU name, and that timing a network gives one
// positive median per leaf.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ctnn/host/roofline.hpp"
#include "ctnn/zoo/lenet5.hpp"

#include "test_text.hpp"

using namespace ctnn;

namespace {
using ctnn_test::count;

/// Roofs with round numbers: peak 100 GOP/s, bandwidth 10 GB/s, so the ridge is at 10 op/byte.
host::host_roofs round_roofs(dtype t) {
  host::host_roofs h;
  h.cpu = "Test CPU <x> & co";
  h.type = t;
  h.gemm_gops = 100, h.gemm_size = 256, h.triad_gbs = 10, h.copy_gbs = 12, h.stream_bytes = 12 << 20;
  h.cache_gbs = 40, h.cache_bytes = 1 << 19;
  return h;
}
}  // namespace

TEST_CASE("roofline: intensity, throughput, roof and bound of each leaf from the analysis' figures") {
  using net = zoo::lenet5;
  for (const dtype t : {dtype::float32, dtype::int8}) {
    const host::report r = host::make_report<net>(t);
    std::vector<double> seconds(static_cast<std::size_t>(net::leaf_count));
    for (std::size_t i = 0; i < seconds.size(); ++i) seconds[i] = 1e-6 * static_cast<double>(i + 1);
    const host::roofline f = host::make_roofline(r, seconds, round_roofs(t), 3);
    REQUIRE(f.points.size() == static_cast<std::size_t>(net::leaf_count));
    CHECK(f.roofs.ridge() == doctest::Approx(10.0));
    for (int32_t i = 0; i < net::leaf_count; ++i) {
      const row& x = net::layer(i);
      const host::roofline_point& p = f.points[static_cast<std::size_t>(i)];
      CHECK(p.ops == 2 * x.counts.macs + x.counts.ext_ops);
      CHECK(p.bytes == x.read_bytes(t) + x.write_bytes(t));
      CHECK(p.seconds == seconds[static_cast<std::size_t>(i)]);
      if (p.ops == 0) {
        CHECK_FALSE(p.plotted());  // Flatten
        continue;
      }
      const double intensity = static_cast<double>(p.ops) / static_cast<double>(p.bytes);
      CHECK(p.intensity == doctest::Approx(intensity));
      CHECK(p.gops == doctest::Approx(static_cast<double>(p.ops) / p.seconds * 1e-9));
      CHECK(p.roof == doctest::Approx(std::min(100.0, 10.0 * intensity)));
      CHECK(p.memory_bound(f.roofs) == (intensity < 10.0));
    }
    // LeNet-5's convolutions are right of a ridge at 10 FLOP/byte, its ReLUs (1 op per 8 or 2 bytes) left
    CHECK_FALSE(f.points[0].memory_bound(f.roofs));
    CHECK(f.points[1].memory_bound(f.roofs));
  }
}

TEST_CASE("roofline: the SVG has one dot per leaf with operations, both roofs, the ridge and escaped text") {
  using net = zoo::lenet5;
  host::report r = host::make_report<net>(dtype::float32);
  for (host::report_row& x : r.rows)
    if (x.leaf == 0) x.name = "conv<1>&\"a\"";
  const std::vector<double> seconds(static_cast<std::size_t>(net::leaf_count), 2e-6);
  const host::roofline f = host::make_roofline(r, seconds, round_roofs(dtype::float32), 5);
  const std::string svg = host::roofline_svg(f);
  int plotted = 0;
  for (const host::roofline_point& p : f.points) plotted += p.plotted() ? 1 : 0;
  CHECK(plotted == net::leaf_count - 1);  // all but Flatten
  CHECK(count(svg, "class=\"layer\"") == plotted);
  CHECK(count(svg, "<title>") == plotted + 4);  // the dots, two roofs, the cache line, the ridge
  CHECK(count(svg, "id=\"roof-memory\"") == 1);
  CHECK(count(svg, "id=\"roof-compute\"") == 1);
  CHECK(count(svg, "id=\"cache-bandwidth\"") == 1);
  CHECK(count(svg, "id=\"vector-peak\"") == 0);  // not measured here
  CHECK(svg.find("data-ridge=\"10\"") != std::string::npos);
  CHECK(svg.find("data-peak-gops=\"100\" data-bandwidth-gbs=\"10\"") != std::string::npos);
  CHECK(svg.find("data-layer=\"conv&lt;1&gt;&amp;&quot;a&quot;\"") != std::string::npos);
  CHECK(svg.find("on Test CPU &lt;x&gt; &amp; co") != std::string::npos);
  CHECK(svg.find("FLOP/byte, log") != std::string::npos);
  CHECK(svg.find("GFLOP/s, log") != std::string::npos);
  CHECK(count(svg, "<svg ") == 1);
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
  const std::string table = host::roofline_table(f);
  CHECK(table.find("Ridge point: 10.000 FLOP/byte") != std::string::npos);
  CHECK(table.find("no ops") != std::string::npos);
}

TEST_CASE("roofline: the CPU name from a cpuinfo file, or 'unknown CPU'") {
  const std::string path = "roofline_cpuinfo.txt";
  std::FILE* f = std::fopen(path.c_str(), "w");
  REQUIRE(f != nullptr);
  std::fputs("processor\t: 0\nvendor_id\t: X\nmodel name\t:  Some CPU @ 3.0GHz \nmodel name\t: second\n", f);
  std::fclose(f);
  CHECK(host::cpu_model_name(path.c_str()) == "Some CPU @ 3.0GHz");
  std::remove(path.c_str());
  CHECK(host::cpu_model_name("/nonexistent/cpuinfo") == "unknown CPU");
}

TEST_CASE("roofline: timing a network gives one positive, finite median per leaf (both dtypes)") {
  std::string failed;
  const std::vector<double> f = host::time_leaves<zoo::lenet5, float>(3, 1, failed);
  const std::vector<double> q = host::time_leaves<zoo::lenet5, int8_t>(1, 1, failed);
  CHECK(failed.empty());
  REQUIRE(f.size() == static_cast<std::size_t>(zoo::lenet5::leaf_count));
  REQUIRE(q.size() == f.size());
  for (std::size_t i = 0; i < f.size(); ++i) {
    CHECK((std::isfinite(f[i]) && f[i] >= 0));
    CHECK((std::isfinite(q[i]) && q[i] >= 0));
  }
  CHECK(f[0] > 0);  // the first convolution takes measurable time
}
