// What a backend switch saves of a step (study/analysis/step_projection.h,
// pipeline/step_projection_file.h): the factors from a run's measurements, worked out here by hand
// on a small run; and the projections of the shipped model studies (examples/models) set against
// the step times that the same models measured unprofiled, eager against SDPA
// (tests/data/models/step_times.json).

#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "analysis/spread.h"
#include "attnprof/analysis.h"
#include "pipeline/step_projection_file.h"
#include "study/analysis/report_conclusions.h"
#include "study/analysis/step_projection.h"
#include "study/analysis/trace_projection.h"
#include "study/render/projection_words.h"
#include "test_support.h"

namespace attnprof {
namespace {

namespace fs = std::filesystem;

RunVariant variant(const std::string& name, const std::string& status, double median_ms,
                   const std::string& chosen = "") {
  RunVariant v;
  v.variant = name;
  v.status = parse_name_in(kRunStatusNames, status).value();
  v.chosen_backend = chosen;
  v.checked = status == "ok" || status == "failed";
  v.passed = status == "ok";
  v.median_ms = median_ms;
  return v;
}

// Two distinct calls of a trace: 3 calls of 100 µs (point 0) and 1 call of 200 µs (point 1),
// 500 µs of attention per region, run by cuDNN.
RunSummary two_point_run() {
  RunSummary run;
  RunFromTrace t;
  t.trace = "step.json";
  t.calls = {{0, 3, 100e3, "cudnn", "aten::_cudnn_attention_forward", ""},
             {1, 1, 200e3, "cudnn", "aten::_cudnn_attention_forward", ""}};
  run.from_trace = t;
  RunPoint p0, p1;
  // No traces: the CUDA-event medians stand in (call_ns).
  p0.variants = {variant("naive", "ok", 0.300), variant("sdpa-flash", "ok", 0.050),
                 variant("sdpa-cudnn", "ok", 0.100), variant("sdpa-math", "failed", 0.4),
                 variant("sdpa-auto", "ok", 0.100, "cudnn")};
  // sdpa-flash cannot run the second call; sdpa-math ran it and passed there.
  p1.variants = {variant("naive", "ok", 0.400), variant("sdpa-flash", "unsupported", 0),
                 variant("sdpa-cudnn", "ok", 0.200), variant("sdpa-math", "ok", 0.8),
                 variant("sdpa-auto", "ok", 0.200, "cudnn")};
  p1.variants[1].median_ms.reset();
  run.points = {p0, p1};
  return run;
}

const SwitchFactors* factors_of(const std::vector<SwitchFactors>& all, const std::string& name) {
  for (const SwitchFactors& f : all)
    if (f.variant == name) return &f;
  return nullptr;
}

TEST(StepProjection, FactorsAreTheVariantsTimeOverTheTracesSummedOverItsCalls) {
  const RunSummary run = two_point_run();
  // CPU per call in each variant's own trace: naive's at both points, flash's at the one it ran.
  const std::vector<VariantCallCpu> cpu = {{0, "naive", 40e3},
                                           {1, "naive", 60e3},
                                           {0, "sdpa-flash", 10e3},
                                           {0, "sdpa-cudnn", 20e3},
                                           {1, "sdpa-cudnn", 20e3},
                                           {0, "sdpa-auto (cudnn)", 20e3},
                                           {1, "sdpa-auto (cudnn)", 20e3}};
  const std::vector<SwitchFactors> f = switch_factors(run, cpu, /*trace_attention_cpu_ns=*/400e3);
  // naive: (3 x 300 + 1 x 400) / (3 x 100 + 200) = 1300 / 500; CPU (3 x 40 + 60) / 400.
  const SwitchFactors* naive = factors_of(f, "naive");
  ASSERT_NE(naive, nullptr);
  EXPECT_DOUBLE_EQ(naive->attention, 2.6);
  ASSERT_TRUE(naive->attention_cpu);
  EXPECT_DOUBLE_EQ(*naive->attention_cpu, 0.45);
  EXPECT_FALSE(naive->same_backend);
  // flash timed only the first call: the second keeps the trace's 200 µs, (150 + 200) / 500; its
  // CPU is not known for every call, so it has no CPU factor.
  const SwitchFactors* flash = factors_of(f, "sdpa-flash");
  ASSERT_NE(flash, nullptr);
  EXPECT_DOUBLE_EQ(flash->attention, 0.7);
  EXPECT_FALSE(flash->attention_cpu);
  // cuDNN is the trace's own backend, through sdpa-auto too.
  ASSERT_NE(factors_of(f, "sdpa-cudnn"), nullptr);
  EXPECT_TRUE(factors_of(f, "sdpa-cudnn")->same_backend);
  EXPECT_DOUBLE_EQ(factors_of(f, "sdpa-cudnn")->attention, 1.0);
  ASSERT_NE(factors_of(f, "sdpa-auto (cudnn)"), nullptr);
  EXPECT_TRUE(factors_of(f, "sdpa-auto (cudnn)")->same_backend);
  // math failed the float64 check at one point: never a switch.
  EXPECT_EQ(factors_of(f, "sdpa-math"), nullptr);

  const std::vector<WhatIfRule> rules = what_if_rules_of(*naive);
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0].kind, WhatIfSelectorKind::kAttention);
  EXPECT_EQ(rules[1].kind, WhatIfSelectorKind::kAttentionCpu);
  EXPECT_EQ(rules[1].text, "attention-cpu=0.45");
  EXPECT_EQ(what_if_rules_of(*flash).size(), 1u);
}

TEST(StepProjection, TheSwitchIsTheLargestStepSavingOfAnotherBackendAboveTheNoise) {
  TraceProjection p;
  p.switch_variant = "by GPU time";
  StepProjection step;
  step.length_ns = 10e6;
  SwitchFactors same, small, large;
  same.variant = "sdpa-cudnn";
  same.same_backend = true;
  small.variant = "sdpa-flash";
  large.variant = "naive";
  step.switches = {{same, 5e6}, {small, 9.6e6}, {large, 9.2e6}};
  weigh_by_step(p, step);
  // The trace's own backend saves the most and is no switch; 4 % is under the 5 % that counts.
  EXPECT_EQ(p.switch_variant, "naive");
  EXPECT_DOUBLE_EQ(p.switch_saving_ns, 0.8e6);
  step.switches = {{same, 5e6}, {small, 9.6e6}};
  weigh_by_step(p, step);
  EXPECT_EQ(p.switch_variant, "");
  EXPECT_EQ(step_headline(p),
            "The trace's step is 10.00 ms on its critical path, bound by nothing: no switch to "
            "another backend saves 5 % of it.");
}

// Unprofiled step times (ms) of a model, workload and implementation, from step_times.json.
double unprofiled_ms(const std::string& model, const std::string& workload,
                     const std::string& implementation) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.load(testing::fixture("models/step_times.json"));
  for (simdjson::dom::element row : doc["rows"].get_array()) {
    if (std::string_view(row["model"]) == model && std::string_view(row["workload"]) == workload &&
        std::string_view(row["implementation"]) == implementation)
      return double(row["median_ms"]);
  }
  ADD_FAILURE() << "no step time for " << model << " " << workload << " " << implementation;
  return 0;
}

struct Projected {
  RunSummary run;
  StepProjectionOutcome outcome;
  TraceProjection projection;
};

Projected project_model(const std::string& name) {
  const fs::path dir = fs::path(ATTNPROF_SOURCE_DIR) / "examples/models" / name;
  Projected out;
  auto run = read_run_summary((dir / "summary.json").string());
  EXPECT_TRUE(run.ok());
  if (!run.ok()) return out;
  out.run = std::move(*run);
  // The summary names the trace from the checkout's root, which is found above the run's folder.
  out.outcome = project_step_file(out.run, dir, Limits{});
  StudyConclusions c = conclude_run(out.run, -1, out.outcome);
  if (c.projection) out.projection = *c.projection;
  return out;
}

double median_path_ns(const std::string& trace) {
  auto analysis = analyze_file(testing::fixture(trace), AnalyzeOptions{});
  EXPECT_TRUE(analysis.ok());
  std::vector<double> lengths;
  for (const RegionSummary& r : analysis->regions)
    lengths.push_back(static_cast<double>(r.critical_path.length_ns));
  return spread_of(lengths).median;
}

TEST(StepProjection, EagerPrefillToSdpaSavesWhatSdpaSavedUnprofiled) {
  const Projected p = project_model("llama-prefill-eager");
  ASSERT_TRUE(p.outcome.step) << p.outcome.missing;
  const StepProjection& step = *p.outcome.step;
  // The step is the trace's critical path as analyze times it, held by the CPU.
  EXPECT_DOUBLE_EQ(step.length_ns, median_path_ns("models/llama-prefill-eager.json.gz"));
  EXPECT_EQ(step.bound_by, "CPU");
  EXPECT_EQ(step.same_variant, "naive");
  ASSERT_EQ(p.projection.switch_variant, "sdpa-cudnn");
  // Unprofiled, SDPA's step is 0.951 of eager's (3.60 against 3.78 ms); the projection, taken on
  // a profiled step whose CPU work is longer, within 3 points of that ratio.
  const double measured =
      unprofiled_ms("llama", "prefill", "sdpa") / unprofiled_ms("llama", "prefill", "eager");
  const double projected = (step.length_ns - p.projection.switch_saving_ns) / step.length_ns;
  EXPECT_NEAR(projected, measured, 0.03) << projected << " against " << measured;
}

TEST(StepProjection, CudnnDecodeHeldByItsPlanSavesWhatEagerSavedUnprofiled) {
  const Projected p = project_model("llama-decode-sdpa");
  ASSERT_TRUE(p.outcome.step) << p.outcome.missing;
  const StepProjection& step = *p.outcome.step;
  EXPECT_EQ(step.bound_by, "CPU");
  // cuDNN's op holds most of the step on the CPU (a plan per key length), which the run's
  // repeated calls of one shape do not pay: its own backend is far from the recorded step, and no
  // switch to it is recommended.
  ASSERT_TRUE(step.same_length_ns);
  EXPECT_LT(*step.same_length_ns, 0.5 * step.length_ns);
  EXPECT_GT(step.attention_cpu_ns, 0.8 * step.length_ns);
  EXPECT_NE(p.projection.switch_variant, "sdpa-cudnn");
  EXPECT_NE(p.projection.switch_variant, "sdpa-auto (cudnn)");
  EXPECT_FALSE(p.projection.switch_variant.empty());
  // Unprofiled, eager decodes in 0.124 of SDPA's step; the projection within 10 % of it.
  const double measured =
      unprofiled_ms("llama", "decode", "eager") / unprofiled_ms("llama", "decode", "sdpa");
  const double projected = (step.length_ns - p.projection.switch_saving_ns) / step.length_ns;
  EXPECT_NEAR(projected / measured, 1.0, 0.10) << projected << " against " << measured;
}

TEST(StepProjection, ASdpaStepTheRunReproducesIsKept) {
  for (const char* name : {"llama-prefill-sdpa", "llama-train-sdpa", "mistral-prefill-sdpa"}) {
    const Projected p = project_model(name);
    ASSERT_TRUE(p.outcome.step) << name << ": " << p.outcome.missing;
    const StepProjection& step = *p.outcome.step;
    ASSERT_TRUE(step.same_length_ns) << name;
    EXPECT_NEAR(*step.same_length_ns / step.length_ns, 1.0, kWorthSwitching) << name;
    EXPECT_EQ(p.projection.switch_variant, "") << name;
  }
}

TEST(StepProjection, WithoutItsTraceTheSavingWeighsGpuTimeAndSaysSo) {
  auto run = read_run_summary(std::string(ATTNPROF_SOURCE_DIR) +
                              "/examples/models/llama-prefill-eager/summary.json");
  ASSERT_TRUE(run.ok());
  run->from_trace->trace = "no/such/trace.json.gz";
  testing::TempFile elsewhere("summary.json");
  const StepProjectionOutcome outcome = project_step_file(*run, elsewhere.dir(), Limits{});
  EXPECT_FALSE(outcome.step);
  EXPECT_NE(outcome.missing.find("no/such/trace.json.gz is not here"), std::string::npos)
      << outcome.missing;
  StudyConclusions c = conclude_run(*run, -1, outcome);
  ASSERT_TRUE(c.projection);
  // GPU time's answer: cuDNN through sdpa-auto, 28.4 % of the region's GPU time.
  EXPECT_EQ(c.projection->switch_variant, "sdpa-auto (cudnn)");
  const auto words = projection_words(*run, c);
  ASSERT_TRUE(words);
  bool said = false;
  for (const std::string& line : words->lines)
    said = said || line.rfind("the step is not timed: no/such/trace.json.gz is not here", 0) == 0;
  EXPECT_TRUE(said);
  EXPECT_EQ(step_headline(*c.projection), "");
}

}  // namespace
}  // namespace attnprof
