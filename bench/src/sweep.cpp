#include "sweep.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace attnprof::bench {
namespace {

int64_t* axis_field(Problem& problem, std::string_view key) {
  if (key == "seq") return &problem.seq;
  if (key == "head-dim") return &problem.head_dim;
  if (key == "batch") return &problem.batch;
  if (key == "heads") return &problem.heads;
  if (key == "kv-heads") return &problem.kv_heads;
  if (key == "q-seq") return &problem.q_seq;
  if (key == "window") return &problem.window;
  return nullptr;
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

template <typename T>
std::string csv_number(const std::optional<T>& value) {
  return value ? fmt::format("{:.6g}", static_cast<double>(*value)) : std::string();
}

}  // namespace

Result<SweepAxis> parse_sweep(std::string_view text) {
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    return make_error(ErrorKind::kUsage,
                      "--sweep {}: expected KEY=V1,V2,... (for example seq=512,1024,2048)", text);
  }
  SweepAxis axis{std::string(text.substr(0, equals)), {}};
  Problem probe;
  if (!axis_field(probe, axis.key)) {
    return make_error(
        ErrorKind::kUsage,
        "--sweep {}: unknown key `{}` (seq, head-dim, batch, heads, kv-heads, q-seq or window)",
        text, axis.key);
  }
  std::string_view rest = text.substr(equals + 1);
  while (!rest.empty() || axis.values.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    int64_t value = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || error != std::errc() || end != item.data() + item.size() || value <= 0) {
      return make_error(ErrorKind::kUsage, "--sweep {}: `{}` is not a positive integer", text,
                        item);
    }
    axis.values.push_back(value);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
    if (rest.empty())
      return make_error(ErrorKind::kUsage, "--sweep {}: a value is missing after the last comma",
                        text);
  }
  return axis;
}

std::vector<Problem> expand_sweep(const Problem& base, const std::vector<SweepAxis>& axes) {
  auto swept = [&](std::string_view key) {
    return std::any_of(axes.begin(), axes.end(), [&](const SweepAxis& a) { return a.key == key; });
  };
  // Plain attention stays plain: KV heads follow the heads, queries the keys, unless given apart.
  const bool kv_follows = base.kv_heads == base.heads && !swept("kv-heads");
  const bool q_follows = base.q_seq == base.seq && !swept("q-seq");
  std::vector<Problem> problems{base};
  for (const SweepAxis& axis : axes) {
    std::vector<Problem> next;
    for (const Problem& problem : problems) {
      for (int64_t value : axis.values) {
        Problem point = problem;
        *axis_field(point, axis.key) = value;
        next.push_back(point);
      }
    }
    problems = std::move(next);
  }
  for (Problem& point : problems) {
    if (kv_follows) point.kv_heads = point.heads;
    if (q_follows) point.q_seq = point.seq;
  }
  return problems;
}

std::string sweep_csv(const StudyReport& report) {
  std::string csv =
      "batch,heads,kv_heads,q_seq,seq,head_dim,window,dtype,mask,backward,device,variant,status,"
      "reason,chosen_backend,"
      "gpu_median_ms,gpu_min_ms,gpu_max_ms,reps,input_sets,tflops,percent_of_peak,"
      "peak_allocated_bytes,kernels_per_forward,memcpy_per_forward,main_kernel,main_kernel_us,"
      "occupancy_pct,launch_api,cpu_us_per_forward,rel_error,grad_rel_error,trace_file\n";
  for (const StudyPoint& point : report.points) {
    const Problem& p = point.problem;
    for (const VariantRow& row : point.rows) {
      const VariantMeasurement& m = row.measurement;
      const auto& t = m.timing;
      const RegionFacts* f = row.forward ? &row.forward->facts : nullptr;
      const MainKernel* k = f && f->main_kernel ? &*f->main_kernel : nullptr;
      const auto& c = m.correctness;
      std::vector<std::string> cells{
          std::to_string(p.batch),
          std::to_string(p.heads),
          std::to_string(p.kv_heads),
          std::to_string(p.q_seq),
          std::to_string(p.seq),
          std::to_string(p.head_dim),
          std::to_string(p.window),
          std::string(name(p.dtype)),
          std::string(name(p.mask)),
          p.backward ? "1" : "0",
          std::string(name(p.device)),
          std::string(row_name(m)),
          std::string(name(m.status)),
          csv_field(m.reason),
          m.chosen_backend,
          csv_number(t ? std::optional(t->median_ms) : std::nullopt),
          csv_number(t ? std::optional(t->min_ms) : std::nullopt),
          csv_number(t ? std::optional(t->max_ms) : std::nullopt),
          t ? std::to_string(t->reps) : "",
          t ? std::to_string(t->input_sets) : "",
          csv_number(row.tflops),
          csv_number(row.percent_of_peak),
          m.peak_allocated_bytes ? std::to_string(*m.peak_allocated_bytes) : "",
          csv_number(f ? std::optional(f->kernels.median) : std::nullopt),
          csv_number(f ? std::optional(f->memcpy.median) : std::nullopt),
          csv_field(k ? k->short_name : ""),
          csv_number(f ? std::optional(k ? k->duration_ns / 1e3 : 0.0) : std::nullopt),
          csv_number(k ? k->occupancy_pct : std::nullopt),
          k ? k->launch_api : "",
          csv_number(f ? std::optional(f->cpu_ns.median / 1e3) : std::nullopt),
          csv_number(c ? std::optional(c->output_error) : std::nullopt),
          csv_number(c ? c->grad_error : std::nullopt),
          csv_field(row.trace_file)};
      for (size_t i = 0; i < cells.size(); ++i) {
        csv += cells[i];
        csv += i + 1 < cells.size() ? ',' : '\n';
      }
    }
  }
  return csv;
}

}  // namespace attnprof::bench
