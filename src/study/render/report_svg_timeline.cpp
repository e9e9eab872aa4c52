// A region's timeline as SVG: CPU lanes above GPU lanes, one time axis, launch links.

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"
#include "render/op_words.h"
#include "study/render/report_svg.h"
#include "study/render/report_svg_charts.h"

namespace attnprof::svg {

namespace {

constexpr double kWidth = 1120;
constexpr double kGutter = 176;  // lane labels
constexpr double kRight = 14;
constexpr double kPlot = kWidth - kGutter - kRight;
constexpr double kAxis = 26;    // tick labels above the lanes
constexpr double kCpuRow = 15;  // one nesting level
constexpr double kGpuRow = 24;
constexpr double kLaneGap = 8;
constexpr double kGroupGap = 14;  // between the CPU and the GPU lanes
constexpr double kFooter = 18;

std::string_view kind_words(SpanKind kind) {
  switch (kind) {
    case SpanKind::kCpuOp:
      return "CPU op";
    case SpanKind::kUserAnnotation:
      return "user annotation";
    case SpanKind::kRuntime:
      return "CUDA runtime call";
    case SpanKind::kDriver:
      return "CUDA driver call";
    case SpanKind::kKernel:
      return "kernel";
    case SpanKind::kMemcpy:
      return "memcpy";
    case SpanKind::kMemset:
      return "memset";
  }
  return "";
}

std::string offset(int64_t ns) {
  // Appended, not "+" + string, on which g++ 12 warns (-Wrestrict, falsely).
  std::string text = "+";
  text += format_duration(static_cast<double>(ns));
  return text;
}

// Hover text of a GPU span: what `analyze` prints for the activity.
std::string gpu_title(const TimelineSpan& s, const ActivityRow& a) {
  std::string t = a.short_name;
  if (a.name != a.short_name) t += fmt::format("\n{}", clip(a.name, 240));
  t += fmt::format(
      "\n{}{} · {} · starts {}", kind_words(s.kind),
      s.kind == SpanKind::kKernel ? fmt::format(" ({})", kernel_class_label(s.kernel_class)) : "",
      format_duration(static_cast<double>(s.duration_ns)), offset(s.start_ns));
  if (s.kind == SpanKind::kKernel) {
    t += fmt::format("\ngrid {} · block {}", format_dim3(a.grid), format_dim3(a.block));
    t +=
        fmt::format("\n{} registers/thread · {} shared memory",
                    format_known_count(a.registers_per_thread), format_size(a.shared_memory_bytes));
    if (a.occupancy_pct) {
      t += fmt::format("\noccupancy {:.1f} % (attnprof's estimate{})", *a.occupancy_pct,
                       a.occupancy_limiter.empty() ? "" : ", limited by " + a.occupancy_limiter);
    }
    if (a.kineto_occupancy_pct) t += fmt::format("; Kineto: {:.0f} %", *a.kineto_occupancy_pct);
  } else {
    t += fmt::format("\n{}", format_size(a.bytes));
  }
  if (!a.launch_api.empty() || !a.op_chain.empty())
    t += "\nlaunched by " + launch_chain(a.op_chain, a.launch_api, " → ");
  t += fmt::format("\nstream {}", a.stream);
  return t;
}

std::string cpu_title(const TimelineSpan& s) {
  return fmt::format("{}\n{} · {} · starts {}", s.name, kind_words(s.kind),
                     format_duration(static_cast<double>(s.duration_ns)), offset(s.start_ns));
}

// "thread 1040 (attnprof)" -> "CPU thread 1040" and "attnprof".
std::pair<std::string, std::string> lane_words(const TimelineLane& lane) {
  if (lane.gpu)
    return {fmt::format("GPU {} stream {}", lane.device, lane.stream), "kernels, copies"};
  std::string second = lane.label;
  size_t open = second.find('(');
  if (open != std::string::npos && second.back() == ')')
    second = second.substr(open + 1, second.size() - open - 2);
  return {fmt::format("CPU thread {}", lane.tid), second};
}

// The critical path over the spans: a line along the foot of each stretch's span (clear of its
// label), a step
// between lanes where the path crosses from one to the other, dashed where the path is on no
// event (the GPU idle between dependent work, the CPU between ops) and stays where it was.
template <typename X, typename Box>
void write_critical_path(std::string& out, const RegionTimeline& t, X x, double end, Box box) {
  if (t.critical_path.empty()) return;
  auto y_of = [&](const TimelinePathStep& s) {
    TimelineSpan at;
    at.depth = s.depth;
    const auto b = box(static_cast<size_t>(s.lane), at);
    return b[1] + b[3] - 1;
  };
  // Where the path starts: the first stretch that is on a lane.
  double y = -1;
  for (const TimelinePathStep& s : t.critical_path)
    if (s.lane >= 0) {
      y = y_of(s);
      break;
    }
  if (y < 0) return;
  std::string solid, dashed;
  bool drawn = false;
  for (const TimelinePathStep& s : t.critical_path) {
    if (static_cast<double>(s.start_ns) >= end) break;
    const double x0 = x(static_cast<double>(s.start_ns)), x1 = x(static_cast<double>(s.end_ns));
    if (s.lane < 0) {
      put(dashed, "M{},{}H{}", num(x0), num(y), num(x1));
    } else {
      const double to = y_of(s);
      // The step from the previous stretch's lane, at the time the path crosses.
      if (drawn && to != y) put(solid, "M{},{}V{}", num(x0), num(y), num(to));
      y = to;
      put(solid, "M{},{}H{}", num(x0), num(y), num(std::max(x1, x0 + 0.8)));
      drawn = true;
    }
  }
  const int64_t length = t.critical_path.back().end_ns - t.critical_path.front().start_ns;
  put(out,
      R"(<g class="critical-path" fill="none" stroke="#111827" stroke-width="2"><title>critical path: {} (docs/CRITICAL_PATH.md)</title><path d="{}"/>)",
      format_duration(static_cast<double>(length)), solid);
  if (!dashed.empty())
    put(out, R"(<path class="critical-path-gap" d="{}" stroke-dasharray="3 2"/>)", dashed);
  put(out, "</g>");
}

}  // namespace

std::string timeline(const RegionTimeline& t, const std::string& id, const std::string& variant,
                     int64_t window_ns) {
  // Lane positions first: CPU lanes as tall as their nesting, then the GPU lanes.
  std::vector<double> top(t.lanes.size()), height(t.lanes.size());
  double y = kAxis + 4;
  bool in_gpu = false;
  for (size_t i = 0; i < t.lanes.size(); ++i) {
    const TimelineLane& lane = t.lanes[i];
    if (lane.gpu && !in_gpu && i > 0) y += kGroupGap;
    in_gpu = lane.gpu;
    top[i] = y;
    height[i] = lane.gpu ? kGpuRow + 4 : std::max(lane.levels * kCpuRow + 4, 30.0);
    y += height[i] + kLaneGap;
  }
  const double lanes_bottom = y - kLaneGap;
  const double total_height = lanes_bottom + kFooter;
  // The axis runs a little past the last span (or to the window's end, for a zoomed view).
  const double last =
      std::max<double>(static_cast<double>(window_ns > 0 ? window_ns : t.end_ns), 1.0);
  const double end = window_ns > 0 ? last : last * 1.01;
  auto x = [&](double ns) { return kGutter + std::clamp(ns, 0.0, end) / end * kPlot; };
  auto visible = [&](const TimelineSpan& s) { return static_cast<double>(s.start_ns) < end; };

  std::string out;
  put(out,
      R"(<svg class="{}" id="{}" data-variant="{}" viewBox="0 0 {} {}" width="100%" style="min-width:{}px" role="img" aria-label="timeline of {}">)",
      window_ns > 0 ? "timeline-zoom" : "timeline", escape(id), escape(variant), num(kWidth),
      num(total_height), num(kWidth), escape(variant));
  put(out,
      R"(<defs><marker id="{}-arrow" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#475569"/></marker></defs>)",
      escape(id));

  // Lane bands and labels.
  for (size_t i = 0; i < t.lanes.size(); ++i) {
    const TimelineLane& lane = t.lanes[i];
    auto [first, second] = lane_words(lane);
    put(out, R"(<rect class="lane {}" x="{}" y="{}" width="{}" height="{}" fill="{}"/>)",
        lane.gpu ? "gpu-lane" : "cpu-lane", num(kGutter), num(top[i]), num(kPlot), num(height[i]),
        lane.gpu ? "#f1f5f9" : "#f8fafc");
    put(out,
        R"(<text class="lane-label" x="8" y="{}" font-size="11" font-weight="600" fill="#334155">{}</text>)",
        num(top[i] + 12), escape(fit_width(first, kGutter - 12, 11)));
    put(out, R"(<text class="lane-label" x="8" y="{}" font-size="10" fill="#64748b">{}</text>)",
        num(top[i] + 24), escape(fit_width(second, kGutter - 12, 10)));
    if (lane.spans_in_region > static_cast<int64_t>(lane.spans.size())) {
      put(out, R"(<text x="8" y="{}" font-size="9" fill="#b45309">{} of {} spans</text>)",
          num(top[i] + 35), lane.spans.size(), lane.spans_in_region);
    }
  }

  // The time axis: ticks and grid lines across every lane.
  for (double tick : linear_ticks(last, 8)) {
    const double tx = x(tick);
    put(out, R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#e2e8f0"/>)", num(tx),
        num(kAxis - 4), num(lanes_bottom));
    put(out, R"(<text x="{}" y="{}" font-size="10" fill="#64748b" text-anchor="{}">{}</text>)",
        num(tx), num(kAxis - 8), tick == 0 ? "start" : "middle", format_tick_duration(tick));
  }
  // Where the region ends on the CPU: GPU work often runs on long after it.
  if (t.region_duration_ns > 0 && static_cast<double>(t.region_duration_ns) < last) {
    const double rx = x(static_cast<double>(t.region_duration_ns));
    put(out,
        R"(<line class="region-end" x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#64748b" stroke-dasharray="3 3"><title>{3} ends on the CPU at {4}</title></line>)",
        num(rx), num(kAxis - 2), num(lanes_bottom), escape(t.region_name),
        offset(t.region_duration_ns));
    // The words go on the side of the line where there is room for them.
    const bool left = rx > kGutter + kPlot * 0.6;
    put(out,
        R"(<text x="{}" y="{}" font-size="10" fill="#64748b" text-anchor="{}">{}{} ends on the CPU ({}){}</text>)",
        num(left ? rx - 4 : rx + 4), num(lanes_bottom + 13), left ? "end" : "start",
        left ? "" : "◂ ", escape(fit(t.region_name, 24)),
        format_duration(static_cast<double>(t.region_duration_ns)), left ? " ▸" : "");
  }

  auto span_box = [&](size_t lane, const TimelineSpan& s) {
    const double x0 = x(static_cast<double>(s.start_ns));
    const double w = std::max(x(static_cast<double>(s.start_ns + s.duration_ns)) - x0, 0.8);
    const bool gpu = t.lanes[lane].gpu;
    const double y0 = gpu ? top[lane] + 2 : top[lane] + 2 + s.depth * kCpuRow;
    return std::array<double, 4>{x0, y0, w, gpu ? kGpuRow : kCpuRow - 2};
  };

  // Links below the spans, so that the spans stay readable.
  put(out,
      R"(<g class="links" fill="none" stroke="#475569" stroke-opacity="0.55" stroke-width="1">)");
  for (const TimelineLink& link : t.links) {
    const TimelineSpan& from = t.lanes[link.from_lane].spans[link.from_span];
    const TimelineSpan& to = t.lanes[link.to_lane].spans[link.to_span];
    if (!visible(from)) continue;
    auto a = span_box(link.from_lane, from);
    auto b = span_box(link.to_lane, to);
    const double x1 = a[0] + std::min(a[2], 2.0), y1 = a[1] + a[3];
    // GPU work that starts past a zoomed view's end: the arrow points out of its right edge.
    const double x2 = visible(to) ? b[0] : kGutter + kPlot, y2 = b[1] - 1;
    const double bend = (y2 - y1) * 0.5;
    put(out,
        R"svg(<path class="launch-link" d="M{},{} C{},{} {},{} {},{}" marker-end="url(#{}-arrow)"><title>{} → {}: starts {} after the launch</title></path>)svg",
        num(x1), num(y1), num(x1), num(y1 + bend), num(x2), num(y2 - bend), num(x2), num(y2),
        escape(id), escape(from.name), escape(to.name),
        format_duration(static_cast<double>(to.start_ns - from.start_ns)));
  }
  put(out, "</g>");

  for (size_t i = 0; i < t.lanes.size(); ++i) {
    const TimelineLane& lane = t.lanes[i];
    put(out, R"(<g class="spans {}">)", lane.gpu ? "gpu-spans" : "cpu-spans");
    for (const TimelineSpan& s : lane.spans) {
      if (!visible(s)) continue;
      auto [x0, y0, w, h] = span_box(i, s);
      const std::string fill(lane.gpu ? class_color(s.kernel_class) : cpu_color(s.kind, s.depth));
      const std::string title =
          lane.gpu && s.activity >= 0 && s.activity < static_cast<int32_t>(t.activities.size())
              ? gpu_title(s, t.activities[s.activity])
              : cpu_title(s);
      put(out,
          R"(<rect class="span {}" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{}"><title>{}</title></rect>)",
          lane.gpu ? "gpu-span" : "cpu-span", num(x0), num(y0), num(w), num(h), w > 4 ? "2" : "0",
          fill, escape(title));
      const double font = lane.gpu ? 11 : 9.5;
      const std::string label = w > 22 ? fit_width(s.name, w - 6, font) : "";
      if (!label.empty()) {
        put(out, R"(<text x="{}" y="{}" font-size="{}" fill="{}">{}</text>)", num(x0 + 3),
            num(y0 + h / 2 + font * 0.35), num(font), text_on(fill), escape(label));
      }
    }
    put(out, "</g>");
  }
  write_critical_path(out, t, x, end, span_box);
  put(out, "</svg>");
  return out;
}

}  // namespace attnprof::svg
