// `attnprof diff`: the noise rule, the alignment of activity sequences (on tiny inline analyses),
// and the study's facts on the real H200 traces: naive -> in-place removes exactly the hidden
// `Memcpy DtoD` launched from aten::masked_fill.

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/kernels/kernel_class.h"
#include "analysis/spread.h"
#include "attnprof/trace_diff.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;
using testing::fixture;
using testing::run_cli;

constexpr int64_t kUs = 1000;

ActivityRow kernel(const std::string& name, int64_t duration_ns) {
  ActivityRow a;
  a.short_name = a.name = name;
  a.launch_api = "cudaLaunchKernel";
  a.duration_ns = duration_ns;
  return a;
}

// The per-region quantity of a catalog fact, which every diff of two regioned traces has.
const QuantityDiff& quantity(const TraceDiff& d, std::string_view fact) {
  static const QuantityDiff kNone;
  const FactDiff* q = d.find(fact);
  EXPECT_NE(q, nullptr) << fact;
  return q ? q->quantity : kNone;
}

// An analysis of `regions`, each a list of kernels; the first region is the typical one.
TraceAnalysis analysis_of(const std::vector<std::vector<ActivityRow>>& regions) {
  TraceAnalysis t;
  t.path = "inline";
  t.region_pattern = "forward";
  for (const auto& activities : regions) {
    RegionSummary r;
    r.name = "forward";
    r.kernels = static_cast<int64_t>(activities.size());
    for (const auto& a : activities) r.gpu_busy_ns += a.duration_ns;
    r.activities = activities;
    t.regions.push_back(r);
  }
  t.typical_region = regions.empty() ? -1 : 0;
  return t;
}

std::vector<ActivityRow> kernels(const std::vector<std::string>& names,
                                 int64_t duration_ns = 100 * kUs) {
  std::vector<ActivityRow> out;
  for (const auto& n : names) out.push_back(kernel(n, duration_ns));
  return out;
}

std::string changes(const TraceDiff& d) {
  std::string out;
  for (const auto& x : d.activities) {
    const ActivityRow& row = x.a ? x.a->row : x.b->row;
    const char* mark = x.change == ActivityChange::kSame      ? " "
                       : x.change == ActivityChange::kChanged ? "~"
                       : x.change == ActivityChange::kAdded   ? "+"
                                                              : "-";
    out += mark + row.short_name + " ";
  }
  return out;
}

TEST(DiffNoise, ATimeMustMoveBeyondTwiceTheScatterAndFivePercent) {
  // A: 100 us in every region; B: 104 us. 5 % of 100 us is the bar.
  QuantityDiff q = diff_time(spread_of({100e3, 100e3, 100e3}), spread_of({104e3, 104e3, 104e3}));
  EXPECT_DOUBLE_EQ(q.threshold, 5e3);
  EXPECT_FALSE(q.changed);
  EXPECT_TRUE(diff_time(spread_of({100e3, 100e3}), spread_of({106e3, 106e3})).changed);
  // B scatters over 90..130 us (half-range 20): a 15 us move of the median is noise.
  q = diff_time(spread_of({100e3, 100e3, 100e3}), spread_of({90e3, 115e3, 130e3}));
  EXPECT_DOUBLE_EQ(q.threshold, 40e3);
  EXPECT_FALSE(q.changed);
  // Tiny kernels: below 1 us nothing counts.
  EXPECT_FALSE(diff_time(spread_of({2e3}), spread_of({2.9e3})).changed);
}

TEST(DiffNoise, ACountChangesWhenItsMediansDiffer) {
  EXPECT_TRUE(diff_count(spread_of({5, 5, 5}), spread_of({4, 4, 4})).changed);
  EXPECT_FALSE(diff_count(spread_of({5, 5, 5}), spread_of({5, 5, 5})).changed);
  // A varies by one kernel between regions: a one-kernel move of the median is within it.
  EXPECT_FALSE(diff_count(spread_of({5, 6, 4}), spread_of({6, 6, 6})).changed);
}

TEST(DiffAlignment, AddedAndRemovedActivitiesStandWhereTheyRan) {
  TraceAnalysis a = analysis_of({kernels({"gemm", "scale", "copy", "fill", "softmax", "gemm"})});
  TraceAnalysis b = analysis_of({kernels({"gemm", "scale", "fill", "softmax", "cast", "gemm"})});
  auto d = diff_traces(a, b);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_TRUE(d->aligned_in_order);
  EXPECT_EQ(changes(*d), " gemm  scale -copy  fill  softmax +cast  gemm ");
  EXPECT_EQ(d->removed, 1);
  EXPECT_EQ(d->added, 1);
  EXPECT_EQ(d->unchanged, 5);
}

TEST(DiffAlignment, AMatchedKernelChangesWhenItsDurationMovesBeyondNoise) {
  TraceAnalysis a = analysis_of({kernels({"gemm", "softmax"}), kernels({"gemm", "softmax"})});
  auto slower = kernels({"gemm", "softmax"});
  slower[1].duration_ns = 150 * kUs;
  slower[0].launch_api = "cuLaunchKernelEx";
  TraceAnalysis b = analysis_of({slower, slower});
  auto d = diff_traces(a, b);
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->activities.size(), 2u);
  EXPECT_EQ(d->activities[0].change, ActivityChange::kChanged);
  EXPECT_EQ(d->activities[0].what_changed, std::vector<ActivityAspect>{ActivityAspect::kLaunchApi});
  EXPECT_EQ(d->activities[1].change, ActivityChange::kChanged);
  EXPECT_EQ(d->activities[1].what_changed, std::vector<ActivityAspect>{ActivityAspect::kDuration});
  EXPECT_DOUBLE_EQ(d->activities[1].duration->delta, 50.0 * kUs);
}

TEST(DiffAlignment, SequencesTooLongToAlignAreMatchedByName) {
  std::vector<std::string> names;
  for (int i = 0; i < 10000; ++i) names.push_back(fmt::format("k{}", i));
  std::vector<std::string> reversed(names.rbegin(), names.rend());
  reversed.push_back("extra");
  auto d = diff_traces(analysis_of({kernels(names, 1000)}), analysis_of({kernels(reversed, 1000)}));
  ASSERT_TRUE(d.ok());
  EXPECT_FALSE(d->aligned_in_order);
  EXPECT_EQ(d->unchanged, 10000);
  EXPECT_EQ(d->added, 1);
  EXPECT_EQ(d->removed, 0);
  EXPECT_EQ(d->activities.back().b->row.short_name, "extra");
}

TEST(DiffAlignment, ATraceWithoutRegionsIsAnError) {
  TraceAnalysis none = analysis_of({});
  auto d = diff_traces(analysis_of({kernels({"gemm"})}), none);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message, "inline: no region matches \"forward\"");
}

TEST(StudyDiff, InPlaceRemovesExactlyTheHiddenCopyFromMaskedFill) {
  TraceAnalysis naive = analyze_fixture("study_naive.json.gz", "forward");
  TraceAnalysis inplace = analyze_fixture("study_inplace.json.gz", "forward");
  auto d = diff_traces(naive, inplace);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_TRUE(d->aligned_in_order);
  EXPECT_EQ(d->removed, 1);
  EXPECT_EQ(d->added, 0);
  const ActivityDiff* removed = nullptr;
  for (const auto& x : d->activities)
    if (x.change == ActivityChange::kRemoved) removed = &x;
  ASSERT_NE(removed, nullptr);
  const ActivityRow& copy = removed->a->row;
  EXPECT_EQ(copy.kind, ActivityKind::kMemcpy);
  EXPECT_EQ(copy.short_name, "Memcpy DtoD");
  EXPECT_EQ(copy.op_chain,
            (std::vector<std::string>{"aten::masked_fill", "aten::clone", "aten::copy_"}));
  EXPECT_EQ(copy.launch_api, "cudaMemcpyAsync");
  EXPECT_EQ(removed->kernel_class, KernelClass::kCopy);
  // The masked_fill kernel itself stays, now launched by masked_fill_ alone: a changed op chain,
  // and no kernel's duration moves beyond the noise.
  for (const auto& x : d->activities) {
    if (x.change != ActivityChange::kChanged) continue;
    EXPECT_EQ(x.a->row.short_name, "elementwise_kernel<...> [masked_fill_kernel]");
    EXPECT_EQ(x.what_changed, std::vector<ActivityAspect>{ActivityAspect::kOpChain});
    EXPECT_EQ(x.b->row.op_chain, std::vector<std::string>{"aten::masked_fill_"});
  }
  EXPECT_EQ(d->changed, 1);
  EXPECT_EQ(d->unchanged, 5);
  // Per region: one copy fewer, the kernels the same, ~252 us of GPU time saved.
  EXPECT_TRUE(quantity(*d, "memcpy").changed);
  EXPECT_EQ(quantity(*d, "memcpy").delta, -1);
  EXPECT_EQ(d->find("memcpy_by_kind")->by_kind.at("DtoD").delta, -1);
  EXPECT_FALSE(quantity(*d, "kernels").changed);
  EXPECT_FALSE(quantity(*d, "memset").changed);
  EXPECT_TRUE(quantity(*d, "gpu_busy_us").changed);
  EXPECT_LT(quantity(*d, "gpu_busy_us").delta, -240 * kUs);
  EXPECT_GT(quantity(*d, "gpu_busy_us").delta, -270 * kUs);
  for (const auto& c : d->classes) {
    bool copy_class = c.kernel_class == KernelClass::kCopy;
    EXPECT_EQ(c.time_ns.changed, copy_class) << kernel_class_label(c.kernel_class);
    EXPECT_EQ(c.count.changed, copy_class) << kernel_class_label(c.kernel_class);
  }
}

TEST(StudyDiff, ATraceAgainstItselfShowsNoChange) {
  for (const char* file :
       {"study_naive.json.gz", "study_sdpa-math.json.gz", "train_step.json.gz"}) {
    SCOPED_TRACE(file);
    TraceAnalysis t = analyze_fixture(file);
    auto d = diff_traces(t, t);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->added + d->removed + d->changed, 0);
    EXPECT_EQ(d->unchanged, static_cast<int>(t.regions[t.typical_region].activities.size()));
    for (const FactDiff& q : d->per_region) {
      EXPECT_FALSE(q.quantity.changed) << q.fact;
      for (const auto& [kind, by_kind] : q.by_kind) EXPECT_FALSE(by_kind.changed) << kind;
    }
    for (const auto& c : d->classes) EXPECT_FALSE(c.time_ns.changed || c.count.changed);
  }
}

TEST(DiffCommand, TextShowsTheRemovedCopyWithItsOpChain) {
  auto r = run_cli("diff --activities --region forward " + fixture("study_naive.json.gz") + " " +
                   fixture("study_inplace.json.gz"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  -     252.5            Memcpy DtoD\n"
                          "                         aten::masked_fill -> aten::clone -> "
                          "aten::copy_ -> cudaMemcpyAsync\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("1 removed, 0 added, 1 changed, 5 unchanged"), std::string::npos)
      << r.output;
}

TEST(DiffCommand, JsonAndMarkdown) {
  std::string traces = fixture("study_naive.json.gz") + " " + fixture("study_inplace.json.gz");
  auto json = run_cli("diff --region forward --format json " + traces);
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_NE(json.output.find("\"schemaVersion\": 1"), std::string::npos);
  EXPECT_NE(json.output.find("\"change\": \"removed\""), std::string::npos);
  auto md = run_cli("diff --activities --region forward --format md " + traces);
  EXPECT_EQ(md.exit_code, 0);
  EXPECT_NE(
      md.output.find(
          "| − | `Memcpy DtoD` [1] | 252.5 |  | aten::masked_fill → aten::clone → aten::copy_ → "
          "cudaMemcpyAsync |"),
      std::string::npos)
      << md.output;
  // Names in full below the table (tests/markdown_names_test.cpp).
  EXPECT_NE(md.output.find("<details><summary>Kernel names in full</summary>\n\n1. Memcpy DtoD "
                           "\\(Device -&gt; Device\\)\n"),
            std::string::npos)
      << md.output;
}

TEST(DiffLaunchShape, ARecompiledKernelThatTakesAsLongIsCountedNotListed) {
  auto recompiled = kernels({"gemm", "softmax"});
  recompiled[0].registers_per_thread = 28;
  recompiled[1].registers_per_thread = 28;
  recompiled[1].grid = {2, 1, 1};
  recompiled[1].duration_ns = 150 * kUs;  // this one's time moved: its registers are listed
  auto before = kernels({"gemm", "softmax"});
  before[0].registers_per_thread = before[1].registers_per_thread = 30;
  before[1].grid = {1, 1, 1};
  auto d = diff_traces(analysis_of({before, before}), analysis_of({recompiled, recompiled}));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->activities[0].change, ActivityChange::kSame);
  EXPECT_EQ(d->activities[0].changed_within_noise,
            std::vector<ActivityAspect>{ActivityAspect::kRegisters});
  EXPECT_EQ(d->activities[1].change, ActivityChange::kChanged);
  EXPECT_EQ(d->activities[1].what_changed,
            (std::vector<ActivityAspect>{ActivityAspect::kDuration, ActivityAspect::kGrid,
                                         ActivityAspect::kRegisters}));
  EXPECT_EQ(d->changed_only_in, (std::map<std::string, int>{{"registers", 1}}));
}

DiffRow row(const std::string& name, double delta_us) {
  DiffRow r;
  r.name = name;
  r.delta_ns = delta_us * kUs;
  return r;
}

TEST(DiffExplanation, TheFewestRowsThatCoverEightyPercentOfTheChange) {
  // GPU busy falls by 100 us. By op: 50 + 40 (two rows reach 80); by kernel: 85 (one row).
  std::vector<DiffRow> ops = {row("aten::mm", -50), row("aten::add", +30), row("aten::bmm", -40),
                              row("aten::softmax", -30)};
  std::vector<DiffRow> by_kernel = {row("gemm", -85), row("softmax", -15)};
  Explanation e = explain_change({{ExplainedBy::kByOp, &ops}, {ExplainedBy::kByKernel, &by_kernel}},
                                 1000 * kUs, 900 * kUs, true);
  EXPECT_EQ(e.view, ExplainedBy::kByKernel);
  ASSERT_EQ(e.rows.size(), 1u);
  EXPECT_EQ(e.rows[0].name, "gemm");
  EXPECT_DOUBLE_EQ(e.covered_pct, 85);
  // Without the kernel view, the op rows that move the total's way, largest first; a row that
  // moves against it (aten::add) is never part of the explanation.
  e = explain_change({{ExplainedBy::kByOp, &ops}}, 1000 * kUs, 900 * kUs, true);
  ASSERT_EQ(e.rows.size(), 2u);
  EXPECT_EQ(e.rows[0].name, "aten::mm");
  EXPECT_EQ(e.rows[1].name, "aten::bmm");
  EXPECT_DOUBLE_EQ(e.covered_pct, 90);
  // No change: nothing to explain.
  EXPECT_TRUE(
      explain_change({{ExplainedBy::kByOp, &ops}}, 1000 * kUs, 1000 * kUs, false).rows.empty());
}

// Every GPU activity's time per region, the mean over the regions: the kernel classes' total.
double mean_class_total_ns(const TraceAnalysis& t) {
  double sum = 0;
  for (const RegionSummary& r : t.regions)
    for (const KernelClassTotal& c : r.tables.kernel_classes)
      sum += static_cast<double>(c.total_ns);
  return sum / static_cast<double>(t.regions.size());
}

// Pairs of real traces of one workload changed: HTA's TraceDiff pair, eager against SDPA
// attention in one model, the study's naive against cuDNN, one model in bfloat16 against float32.
const std::pair<const char*, const char*> kChangedPairs[] = {
    {"foreign/hta_trace_diff_control_cut.json.gz", "foreign/hta_trace_diff_test_cut.json.gz"},
    {"models/llama-prefill-eager.json.gz", "models/llama-prefill-sdpa.json.gz"},
    {"study_naive.json.gz", "study_sdpa-cudnn.json.gz"},
    {"models/llama-prefill-sdpa-bf16-h100.json.gz", "models/llama-prefill-sdpa-fp32.json.gz"}};

// Both sides of a pair analyzed, and their diff.
struct AnalyzedPair {
  TraceAnalysis a, b;
  TraceDiff d;
};
AnalyzedPair analyze_pair(const char* a_name, const char* b_name) {
  AnalyzedPair p{analyze_fixture(a_name), analyze_fixture(b_name), {}};
  auto d = diff_traces(p.a, p.b);
  EXPECT_TRUE(d.ok());
  if (d.ok()) p.d = std::move(*d);
  return p;
}

TEST(DiffViews, ByKernelAndByOpAddUpToTheKernelClassesTotal) {
  for (const auto& [a_name, b_name] : kChangedPairs) {
    SCOPED_TRACE(a_name);
    const auto [a, b, diff] = analyze_pair(a_name, b_name);
    const TraceDiff* d = &diff;
    const double classes = mean_class_total_ns(b) - mean_class_total_ns(a);
    for (const auto* view : {&d->views.by_kernel, &d->views.by_op}) {
      double sum = 0;
      for (const DiffRow& r : *view) sum += r.delta_ns;
      EXPECT_NEAR(sum, classes, 1e-6 * std::fabs(classes) + 1);
    }
    // Sorted by |delta|.
    for (size_t i = 1; i < d->views.by_kernel.size(); ++i)
      EXPECT_GE(std::fabs(d->views.by_kernel[i - 1].delta_ns),
                std::fabs(d->views.by_kernel[i].delta_ns));
    EXPECT_GE(d->explained_gpu.covered_pct, 80);
    EXPECT_LE(d->explained_gpu.rows.size(), 10u);
  }
}

// The wall time's change, by the regions' critical paths: the categories of each side's paths
// summed here again from the analyses, and the explanation's rows are theirs or the path's
// items, covering at least 80 % of the change in mean path length.
TEST(DiffViews, TheWallChangeIsExplainedByTheCriticalPath) {
  for (const auto& [a_name, b_name] : kChangedPairs) {
    SCOPED_TRACE(a_name);
    const auto [a, b, diff] = analyze_pair(a_name, b_name);
    const TraceDiff* d = &diff;
    ASSERT_TRUE(d->explained_wall.has_value());
    const Explanation& w = *d->explained_wall;
    EXPECT_EQ(w.quantity, "wall");
    auto mean_length = [](const TraceAnalysis& t) {
      double sum = 0;
      for (const RegionSummary& r : t.regions) {
        EXPECT_TRUE(r.critical_path.present);
        EXPECT_EQ(r.critical_path.categories.total_ns(), r.critical_path.length_ns);
        sum += static_cast<double>(r.critical_path.length_ns);
      }
      return sum / static_cast<double>(t.regions.size());
    };
    EXPECT_NEAR(w.total_delta_ns, mean_length(b) - mean_length(a), 1);
    ASSERT_FALSE(w.rows.empty());
    EXPECT_TRUE(w.view == ExplainedBy::kPathByCategory || w.view == ExplainedBy::kPathByItem)
        << explained_by_id(w.view);
    double covered = 0;
    for (const DiffRow& r : w.rows) {
      covered += r.delta_ns;
      if (w.view == ExplainedBy::kPathByItem) {
        EXPECT_TRUE(r.name.rfind("kernel ", 0) == 0 || r.name.rfind("op ", 0) == 0) << r.name;
      }
    }
    EXPECT_NEAR(w.covered_pct, 100.0 * covered / w.total_delta_ns, 1e-6);
    EXPECT_GE(w.covered_pct, 80) << explained_by_id(w.view);
  }
}

// Peak memory is diffed where both traces have [memory] events: the study's naive step against
// itself holds its peak, and the text says it with the op that reached it; a trace without such
// events has no row.
TEST(DiffMemory, ThePeakIsComparedWhereBothTracesHaveMemoryEvents) {
  const TraceAnalysis naive = analyze_fixture("study_naive.json.gz");
  ASSERT_TRUE(naive.facts.peak_allocated_bytes.has_value());
  auto d = diff_traces(naive, naive);
  ASSERT_TRUE(d.ok());
  ASSERT_NE(d->find("peak_allocated_bytes"), nullptr);
  const double mib = naive.facts.peak_allocated_bytes->median / (1024.0 * 1024.0);
  EXPECT_DOUBLE_EQ(quantity(*d, "peak_allocated_bytes").a.median, mib);
  EXPECT_EQ(quantity(*d, "peak_allocated_bytes").delta, 0);
  EXPECT_FALSE(quantity(*d, "peak_allocated_bytes").changed);
  const RegionSummary& typical = naive.regions[static_cast<size_t>(naive.typical_region)];
  ASSERT_FALSE(typical.memory.empty());
  EXPECT_EQ(d->a_peak_op, typical.memory[0].peak_op);
  EXPECT_FALSE(d->a_peak_op.empty());

  const std::string trace = fixture("study_naive.json.gz");
  auto text = run_cli("diff " + trace + " " + trace);
  EXPECT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("Peak CUDA memory allocated: "), std::string::npos) << text.output;
  EXPECT_NE(text.output.find(" at " + d->a_peak_op), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("peak allocated MiB"), std::string::npos) << text.output;

  auto none = diff_traces(analyze_fixture("train_step.json.gz"), naive);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->find("peak_allocated_bytes"), nullptr);
}

// Llama's prefill recorded with profile_memory=True, eager attention against SDPA (H100): the
// eager step's peak holds what SDPA never writes, its attention's score matrices (batch 2 x 16
// heads x 512 x 512: 16 MiB in bfloat16; the softmax upcasts them to float32 and back), so the
// peaks differ by four to five such matrices, beyond noise, and the eager peak is reached in
// its softmax.
TEST(DiffMemory, EagerAttentionsPeakHoldsItsScoreMatrices) {
  auto d = diff_traces(analyze_fixture("models/llama-prefill-eager-memory.json.gz"),
                       analyze_fixture("models/llama-prefill-sdpa-memory.json.gz"));
  ASSERT_TRUE(d.ok());
  ASSERT_NE(d->find("peak_allocated_bytes"), nullptr);
  const double scores_mib = 2.0 * 16 * 512 * 512 * 2 / (1024.0 * 1024.0);
  EXPECT_TRUE(quantity(*d, "peak_allocated_bytes").changed);
  EXPECT_LT(quantity(*d, "peak_allocated_bytes").delta, -4 * scores_mib);
  EXPECT_GT(quantity(*d, "peak_allocated_bytes").delta, -5 * scores_mib);
  EXPECT_EQ(d->a_peak_op, "aten::_softmax");
}

TEST(DiffViews, EagerAgainstSdpaAttentionReadsInOneRowPerShape) {
  auto d = diff_traces(analyze_fixture("models/llama-prefill-eager.json.gz"),
                       analyze_fixture("models/llama-prefill-sdpa.json.gz"));
  ASSERT_TRUE(d.ok());
  ASSERT_FALSE(d->views.attention.empty());
  const DiffRow& top = d->views.attention[0];
  EXPECT_EQ(top.a_detail.rfind("unfused", 0), 0u) << top.a_detail;
  EXPECT_FALSE(top.b_detail.empty());
  EXPECT_EQ(top.b_detail.find("unfused"), std::string::npos) << top.b_detail;
  EXPECT_EQ(top.a_count, top.b_count);
}

TEST(DiffCommand, TheDefaultTextIsASummaryWithinOneHundredTwentyLines) {
  const std::string pair = fixture("foreign/hta_trace_diff_control_cut.json.gz") + " " +
                           fixture("foreign/hta_trace_diff_test_cut.json.gz");
  auto r = run_cli("diff " + pair);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_LE(std::count(r.output.begin(), r.output.end(), '\n'), 120) << r.output;
  EXPECT_NE(r.output.find("% of the GPU busy change"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("By kernel, per region (mean), largest change first (10 of "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("(--activities lists them)"), std::string::npos) << r.output;
  auto three = run_cli("diff --top 3 " + pair);
  EXPECT_NE(three.output.find("(3 of "), std::string::npos) << three.output;
  auto all = run_cli("diff --activities " + pair);
  EXPECT_GT(std::count(all.output.begin(), all.output.end(), '\n'), 1000);
  auto csv = run_cli("diff --format csv --table by_op " + pair);
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  EXPECT_EQ(csv.output.rfind("name,a_count,b_count,a_us,b_us,delta_us,delta_pct,threshold_us,"
                             "beyond_noise\n",
                             0),
            0u)
      << csv.output.substr(0, 200);
  auto text_table = run_cli("diff --table by_op " + pair);
  EXPECT_EQ(text_table.exit_code, 2);
  EXPECT_NE(text_table.output.find("diff --table is for --format csv, not text"), std::string::npos)
      << text_table.output;
}

TEST(DiffCommand, BadInputExitsTwo) {
  std::string naive = fixture("study_naive.json.gz");
  EXPECT_EQ(run_cli("diff " + naive + " " + fixture("no_such_file.json.gz")).exit_code, 2);
  auto r = run_cli("diff --region no_such_region " + naive + " " + naive);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("no region matches \"no_such_region\""), std::string::npos) << r.output;
}

}  // namespace
}  // namespace attnprof
