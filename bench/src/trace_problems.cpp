#include "trace_problems.h"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "analysis/spread.h"
#include "attnprof/analysis.h"
#include "base/format_units.h"

namespace attnprof::bench {

namespace {

std::optional<Dtype> bench_dtype(const std::string& dtype) {
  if (dtype == "bf16") return Dtype::kBf16;
  if (dtype == "fp16") return Dtype::kFp16;
  if (dtype == "fp32") return Dtype::kFp32;
  return std::nullopt;
}

// What identifies a call's problem: its shapes, type and mask, forward or backward apart.
using CallKey = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, std::string, int,
                           bool, int64_t>;

CallKey key_of(const AttentionCall& c) {
  const int mask = c.explicit_mask ? 2 : (c.causal.value_or(false) ? 1 : 0);
  return {*c.batch,
          *c.heads,
          c.kv_heads.value_or(*c.heads),
          *c.q_len,
          *c.kv_len,
          *c.head_dim,
          c.dtype,
          mask,
          c.backward,
          c.window.value_or(0)};
}

bool has_shapes(const AttentionCall& c) {
  return c.batch && c.heads && c.q_len && c.kv_len && c.head_dim;
}

struct Group {
  const AttentionCall* first = nullptr;
  std::vector<double> times;
};

// The call's problem as the bench runs it, with what that assumed; none, with the reason in
// `why`, when the bench cannot run it.
std::optional<Problem> problem_of(const AttentionCall& c, DeviceKind device, std::string& assumed,
                                  std::string& why) {
  Problem p;
  p.batch = *c.batch;
  p.heads = *c.heads;
  p.kv_heads = c.kv_heads.value_or(*c.heads);
  p.q_seq = *c.q_len;
  p.seq = *c.kv_len;
  p.head_dim = *c.head_dim;
  p.device = device;
  const auto dtype = bench_dtype(c.dtype);
  if (!dtype) {
    why = fmt::format("its type is {}, and the bench runs bf16, fp16 and fp32",
                      c.dtype.empty() ? "not recorded" : c.dtype);
    return std::nullopt;
  }
  p.dtype = *dtype;
  if (c.explicit_mask) {
    p.mask = MaskKind::kExplicit;
    assumed =
        "an explicit mask tensor, whose pattern the trace does not record: timed as the causal "
        "pattern given as a tensor (a kernel that takes a mask tensor computes every pair "
        "whatever it hides)";
  } else if (c.causal.value_or(false)) {
    p.mask = MaskKind::kCausal;
    if (p.q_seq != p.seq)
      assumed = fmt::format(
          "is_causal with {} queries against {} keys: the trace's op aligns the diagonal to the "
          "top left, the bench to the end (as a chunk of a prefill)",
          p.q_seq, p.seq);
  } else if (c.causal.has_value()) {
    p.mask = MaskKind::kNone;
  } else if (c.backend == AttentionBackend::kUnfused) {
    // An eager chain adds its mask as a tensor (or none): every pair is computed either way.
    p.mask = MaskKind::kExplicit;
    assumed =
        "an unfused chain, whose mask (if any) is a tensor the trace does not show: timed as the "
        "causal pattern given as a tensor";
  } else {
    p.mask = MaskKind::kCausal;
    assumed = fmt::format(
        "{}'s mask is not recorded (a block mask's contents are not in the trace): timed as the "
        "causal pattern",
        attention_backend_id(c.backend));
  }
  if (c.window) {
    p.window = *c.window + 1;  // the bench's window counts the query's own key
    p.mask = MaskKind::kCausal;
  }
  if (const std::string error = shape_error(p); !error.empty()) {
    why = error;
    return std::nullopt;
  }
  return p;
}

std::string shape_words(const AttentionCall& c) {
  return fmt::format(
      "{} x {} heads{}, {} queries x {} keys, head dim {}, {}{}", *c.batch, *c.heads,
      c.kv_heads && *c.kv_heads != *c.heads ? fmt::format(" ({} KV)", *c.kv_heads) : "", *c.q_len,
      *c.kv_len, *c.head_dim, c.dtype.empty() ? "?" : c.dtype, c.backward ? ", backward" : "");
}

}  // namespace

Result<TraceProblems> trace_problems(const std::string& path, const std::string& region_pattern,
                                     const Limits& limits, DeviceKind device) {
  AnalyzeOptions options;
  options.region_pattern = region_pattern;
  options.limits = limits;
  Result<TraceAnalysis> analysis = analyze_file(path, options);
  if (!analysis.ok()) return analysis.take_error();
  const TraceAnalysis& a = *analysis;
  TraceProblems out;
  out.trace = path;
  out.regions = static_cast<int>(a.regions.size());
  if (a.typical_region >= 0) out.region = a.regions[static_cast<size_t>(a.typical_region)].name;
  out.region_gpu_ns = static_cast<double>(a.facts.gpu_busy_ns.median);
  const std::vector<AttentionCall>& calls = a.attention.calls;
  if (calls.empty())
    return make_error(ErrorKind::kUsage,
                      "--from-trace {}: no attention call in its typical region{} (attnprof "
                      "analyze {} shows what it holds; --region picks other regions)",
                      path, out.region.empty() ? "" : " (" + out.region + ")", path);
  if (std::none_of(calls.begin(), calls.end(), has_shapes))
    return make_error(ErrorKind::kUsage,
                      "--from-trace {}: its {} attention call(s) have no recorded shapes: record "
                      "the trace with torch.profiler.profile(record_shapes=True)",
                      path, calls.size());

  // The distinct problems, in the order of their first call.
  std::map<CallKey, Group> groups;
  std::vector<CallKey> order;
  size_t without_shapes = 0;
  for (const AttentionCall& c : calls) {
    if (!has_shapes(c)) {
      ++without_shapes;
      continue;
    }
    const CallKey key = key_of(c);
    auto [it, added] = groups.try_emplace(key);
    if (added) {
      it->second.first = &c;
      order.push_back(key);
    }
    it->second.times.push_back(static_cast<double>(c.gpu_ns));
  }
  if (without_shapes)
    out.skipped.push_back(fmt::format("{} call(s) without recorded shapes", without_shapes));

  for (const CallKey& key : order) {
    const Group& g = groups.at(key);
    const AttentionCall& c = *g.first;
    if (c.backward) {
      // Timed with its forward, when the trace ran that forward too.
      CallKey forward = key;
      std::get<8>(forward) = false;
      if (!groups.count(forward))
        out.skipped.push_back(
            fmt::format("{}: a backward without its forward in the region "
                        "(the bench times a backward with its forward)",
                        shape_words(c)));
      continue;
    }
    std::string assumed, why;
    std::optional<Problem> problem = problem_of(c, device, assumed, why);
    if (!problem) {
      out.skipped.push_back(
          fmt::format("{} ({} call(s)): {}", shape_words(c), g.times.size(), why));
      continue;
    }
    TraceCall call;
    call.calls = static_cast<int>(g.times.size());
    call.trace_ns = spread_of(g.times).median;
    CallKey backward = key;
    std::get<8>(backward) = true;
    if (auto b = groups.find(backward); b != groups.end()) {
      problem->backward = true;
      call.trace_ns += spread_of(b->second.times).median;
    }
    call.problem = *problem;
    call.backend = std::string(attention_backend_id(c.backend));
    call.op = c.backend_op.empty() ? c.op : c.backend_op;
    call.assumed = assumed;
    out.calls.push_back(std::move(call));
  }
  if (out.calls.empty())
    return make_error(ErrorKind::kUsage,
                      "--from-trace {}: none of its attention calls can run in "
                      "the bench: {}",
                      path, out.skipped.empty() ? "" : out.skipped.front());
  return out;
}

}  // namespace attnprof::bench
