// Host-only: the arena plan as an SVG picture. Each tensor is a box spanning the steps it lives
// (x) at its offset in the arena (y); scratch boxes are hatched; the peak step is marked.
#pragma once
#include <cstdio>
#include <string>

#include "ctnn/host/report.hpp"

namespace ctnn::host {

namespace detail {
inline std::string xml_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}
/// A stable colour per layer type.
inline std::string colour_of(const std::string& type) {
  unsigned h = 2166136261u;
  for (char ch : type) h = (h ^ static_cast<unsigned char>(ch)) * 16777619u;
  return "hsl(" + std::to_string(h % 360) + ",55%,62%)";
}
}  // namespace detail

/// @brief The memory picture of a report: boxes per tensor and scratch, the peak step marked.
inline std::string memory_svg(const report& r) {
  using detail::num;
  const memory_report& m = r.memory;
  const double left = 90, right = 30, top = 60, bottom = 50, width = 1200, height = 720;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  const double steps = m.steps > 0 ? m.steps : 1;
  const double bytes = m.arena_bytes > 0 ? static_cast<double>(m.arena_bytes) : 1.0;
  auto sx = [&](double step) { return left + step / steps * plot_w; };
  auto sy = [&](double offset) { return top + plot_h - offset / bytes * plot_h; };
  std::vector<const report_row*> leaf_rows(static_cast<std::size_t>(m.steps), nullptr);
  for (const report_row& x : r.rows)
    if (x.leaf >= 0 && x.leaf < m.steps) leaf_rows[static_cast<std::size_t>(x.leaf)] = &x;

  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" + num(height) +
       "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
       "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f4d0d0\"/>"
       "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#c03030\" stroke-width=\"2\"/></pattern></defs>\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + num(left) + "\" y=\"24\" font-size=\"16\" font-weight=\"bold\">" +
       detail::xml_escape(r.model) + " (" + name_of(r.type) + "): arena " + grouped(m.arena_bytes) +
       " bytes, lower bound " + grouped(m.lower_bound_bytes) + " bytes</text>\n";
  s += "<text x=\"" + num(left) + "\" y=\"44\" fill=\"#555\">x: execution step (leaf layer), y: offset in the arena; " +
       "hatched: kernel scratch; " + detail::xml_escape(m.strategy) + "</text>\n";
  // axes
  s += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(plot_w) + "\" height=\"" + num(plot_h) +
       "\" fill=\"none\" stroke=\"#333\"/>\n";
  for (int k = 0; k <= 4; ++k) {
    const double off = bytes * k / 4.0;
    s += "<text x=\"" + num(left - 6) + "\" y=\"" + num(sy(off) + 4) + "\" text-anchor=\"end\">" +
         grouped(static_cast<std::uint64_t>(off)) + "</text>\n";
  }
  const int tick = m.steps > 20 ? (m.steps + 9) / 10 : 1;
  for (int st = 0; st < m.steps; st += tick)
    s += "<text x=\"" + num(sx(st + 0.5)) + "\" y=\"" + num(top + plot_h + 16) + "\" text-anchor=\"middle\">" +
         std::to_string(st) + "</text>\n";
  // boxes
  for (const memory_box& b : m.boxes) {
    const double x0 = sx(b.first), x1 = sx(b.last + 1);
    const double y0 = sy(static_cast<double>(b.offset + b.bytes)), y1 = sy(static_cast<double>(b.offset));
    const double h = y1 - y0 < 1.0 ? 1.0 : y1 - y0;
    const report_row* owner = b.leaf >= 0 ? leaf_rows[static_cast<std::size_t>(b.leaf)] : nullptr;
    const std::string what = b.tensor < 0 ? "scratch of layer " + std::to_string(b.leaf)
                             : b.tensor == 0 ? std::string("network input")
                                             : "output of layer " + std::to_string(b.leaf);
    const std::string label = what + (owner != nullptr ? " " + owner->type + " (" + owner->name + ")" : "") + ": " +
                              grouped(b.bytes) + " bytes at offset " + grouped(b.offset) + ", steps " +
                              std::to_string(b.first) + ".." + std::to_string(b.last);
    const std::string fill = b.tensor < 0 ? "url(#hatch)" : detail::colour_of(owner != nullptr ? owner->type : "input");
    s += "<rect x=\"" + num(x0) + "\" y=\"" + num(y0) + "\" width=\"" + num(x1 - x0) + "\" height=\"" + num(h) +
         "\" fill=\"" + fill + "\" fill-opacity=\"0.75\" stroke=\"#222\" stroke-width=\"0.5\"><title>" +
         detail::xml_escape(label) + "</title></rect>\n";
  }
  // the lower bound and the peak step
  const double lb_y = sy(static_cast<double>(m.lower_bound_bytes));
  s += "<line x1=\"" + num(left) + "\" y1=\"" + num(lb_y) + "\" x2=\"" + num(left + plot_w) + "\" y2=\"" + num(lb_y) +
       "\" stroke=\"#1060c0\" stroke-dasharray=\"6 3\"/>\n";
  const double px = sx(m.peak_step + 0.5);
  s += "<line x1=\"" + num(px) + "\" y1=\"" + num(top) + "\" x2=\"" + num(px) + "\" y2=\"" + num(top + plot_h) +
       "\" stroke=\"#c00000\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>\n";
  const report_row* peak = m.peak_step < m.steps ? leaf_rows[static_cast<std::size_t>(m.peak_step)] : nullptr;
  const bool right_half = px > left + plot_w * 0.6;
  s += "<text x=\"" + num(right_half ? px - 6 : px + 6) + "\" y=\"" + num(top + 16) + "\" fill=\"#c00000\" text-anchor=\"" +
       (right_half ? "end" : "start") + "\" font-weight=\"bold\">peak: " + grouped(m.lower_bound_bytes) + " bytes at step " +
       std::to_string(m.peak_step) +
       (peak != nullptr ? " " + detail::xml_escape(peak->type) + " (" + detail::xml_escape(peak->name) + ")" : "") +
       "</text>\n";
  s += "</svg>\n";
  return s;
}

}  // namespace ctnn::host
