// The traces users record beyond the study's single ops, as `attnprof analyze --format json` reads
// them today: Hugging Face models built from a config (tests/data/models), CUDA graphs captured by
// hand and by torch.compile, compiled naive attention and the Kineto options tried on a graph
// (tests/data/graphs), one-rank NCCL collectives (tests/data/comm). Recorded on the H200 by
// scripts/gpu/record-models.sh; every count below was read off the files by hand
// (tests/data/README.md), and docs/CUDA_GRAPHS.md says what the graph traces hold.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_support.h"

namespace attnprof {
namespace {

using testing::fixture;
using testing::run_cli;

struct Activity {
  std::string kind;
  std::string name;
  std::string short_name;
  std::string launch_api;
  int64_t stream = -1;
  double start_us = 0;
  double duration_us = 0;
};

struct Region {
  std::string name;
  int64_t kernels = 0;
  int64_t memcpy = 0;
  int64_t memset = 0;
  double wall_us = 0;
  std::vector<Activity> activities;
};

struct Trace {
  std::vector<Region> regions;
  std::string main_kernel;
  std::string launch_api;
};

// The facts of `analyze --format json` copied out of the parser's document.
Trace analyze(const std::string& name, const std::string& options = {}) {
  const testing::CommandResult r =
      run_cli("analyze --format json " + options + " " + fixture(name));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  simdjson::dom::parser parser;
  simdjson::dom::element trace = parser.parse(r.output)["traces"].at(0);
  Trace t;
  t.main_kernel = std::string(std::string_view(trace["main_kernel"]));
  t.launch_api = std::string(std::string_view(trace["launch_api"]));
  for (simdjson::dom::element region : trace["regions"].get_array()) {
    Region g;
    g.name = std::string(std::string_view(region["name"]));
    g.kernels = int64_t(region["kernels"]);
    g.memcpy = int64_t(region["memcpy"]);
    g.memset = int64_t(region["memset"]);
    g.wall_us = double(region["wall_us"]);
    for (simdjson::dom::element a : region["activities"].get_array()) {
      Activity activity;
      activity.kind = std::string(std::string_view(a["kind"]));
      activity.name = std::string(std::string_view(a["name"]));
      activity.short_name = std::string(std::string_view(a["short_name"]));
      activity.launch_api = std::string(std::string_view(a["launch_api"]));
      activity.stream = int64_t(a["stream"]);
      activity.start_us = double(a["start_us"]);
      activity.duration_us = double(a["duration_us"]);
      g.activities.push_back(activity);
    }
    t.regions.push_back(g);
  }
  return t;
}

size_t count_named(const Region& r, const std::string& part) {
  return static_cast<size_t>(
      std::count_if(r.activities.begin(), r.activities.end(),
                    [&](const Activity& a) { return a.name.find(part) != std::string::npos; }));
}

size_t count_launched_by(const Region& r, const std::string& api) {
  return static_cast<size_t>(std::count_if(r.activities.begin(), r.activities.end(),
                                           [&](const Activity& a) { return a.launch_api == api; }));
}

// Every profiled step of a trace holds the same work: the counts of the first, checked on all.
void expect_steps(const Trace& t, const std::vector<std::string>& names, int64_t kernels,
                  int64_t memcpy, int64_t memset) {
  ASSERT_EQ(t.regions.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(t.regions[i].name, names[i]);
    EXPECT_EQ(t.regions[i].kernels, kernels) << names[i];
    EXPECT_EQ(t.regions[i].memcpy, memcpy) << names[i];
    EXPECT_EQ(t.regions[i].memset, memset) << names[i];
  }
}

const std::vector<std::string> kTwoSteps = {"ProfilerStep#2", "ProfilerStep#3"};
const std::vector<std::string> kThreeReplays = {"ProfilerStep#1", "ProfilerStep#2",
                                                "ProfilerStep#3"};
const std::vector<std::string> kCaptureAndReplays = {"ProfilerStep#0", "ProfilerStep#1",
                                                     "ProfilerStep#2", "ProfilerStep#3"};
const std::string kCudnnFprop = "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma";
const std::string kCudnnDecode = "cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma";

// Llama (GQA 16/4, 2 layers) prefilling 2 x 512 tokens through SDPA: cuDNN's flash forward, one
// launch per layer, through cuLaunchKernelEx.
TEST(RecordedModels, LlamaPrefillRunsCudnnAttentionOncePerLayer) {
  const Trace t = analyze("models/llama-prefill-sdpa.json.gz");
  expect_steps(t, kTwoSteps, 101, 0, 2);
  for (const Region& r : t.regions) {
    EXPECT_EQ(count_named(r, kCudnnFprop), 2u) << r.name;
    EXPECT_EQ(count_named(r, "softmax"), 0u) << r.name;
  }
}

// The same model with attn_implementation="eager": the attention is matmuls and a softmax, one
// softmax per layer and no fused attention kernel.
TEST(RecordedModels, LlamaEagerPrefillHasASoftmaxPerLayerAndNoFusedKernel) {
  const Trace t = analyze("models/llama-prefill-eager.json.gz");
  expect_steps(t, kTwoSteps, 130, 1, 0);
  for (const Region& r : t.regions) {
    EXPECT_EQ(count_named(r, "softmax_warp_forward"), 2u) << r.name;
    EXPECT_EQ(count_named(r, "cudnn_generated"), 0u) << r.name;
    EXPECT_EQ(count_named(r, "fmha"), 0u) << r.name;
  }
}

// flex_attention: transformers compiles it; one Triton template per layer.
TEST(RecordedModels, LlamaFlexPrefillRunsTheTritonTemplatePerLayer) {
  const Trace t = analyze("models/llama-prefill-flex_attention.json.gz");
  expect_steps(t, kTwoSteps, 113, 0, 0);
  EXPECT_EQ(t.main_kernel, "triton_tem_fused_flex_attention_0");
  EXPECT_EQ(count_named(t.regions[0], "triton_tem_fused_flex_attention_0"), 2u);
}

// A training step (forward, backward, AdamW): cuDNN's forward and backward per layer; the loss's
// softmax is cunn_SoftMax, not attention.
TEST(RecordedModels, LlamaTrainStepHasCudnnForwardAndBackwardPerLayer) {
  const Trace t = analyze("models/llama-train-sdpa.json.gz");
  expect_steps(t, kTwoSteps, 303, 5, 9);
  for (const Region& r : t.regions) {
    EXPECT_EQ(count_named(r, kCudnnFprop), 2u) << r.name;
    EXPECT_EQ(count_named(r, "cudnn_generated_fort_native_sdpa_sm90_flash_bprop"), 2u) << r.name;
    EXPECT_EQ(count_named(r, "cunn_SoftMaxForward"), 1u) << r.name;
  }
}

// Decoding one token against a cache that grows by one each step: cuDNN meets a new key length
// every step and builds its plan again on the CPU (~40 ms, in the first layer's call), so llama's
// step lasts 45 ms for 0.2 ms of GPU work. Mistral's 256-token sliding window keeps the keys at
// one length, so its plan is reused: a step in under 10 ms.
TEST(RecordedModels, DecodingWithAGrowingCacheRebuildsTheCudnnPlanEveryStep) {
  const Trace llama = analyze("models/llama-decode-sdpa.json.gz");
  expect_steps(llama, kTwoSteps, 106, 0, 0);
  const Trace mistral = analyze("models/mistral-decode-sdpa.json.gz");
  expect_steps(mistral, kTwoSteps, 126, 0, 0);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(count_named(llama.regions[i], kCudnnDecode), 2u);
    EXPECT_EQ(count_named(mistral.regions[i], kCudnnDecode), 2u);
    EXPECT_GT(llama.regions[i].wall_us, 40000);
    EXPECT_LT(mistral.regions[i].wall_us, 10000);
  }
}

// Mistral's sliding window goes to SDPA as a mask: cuDNN still runs it.
TEST(RecordedModels, MistralPrefillWithASlidingWindowRunsCudnnAttention) {
  const Trace t = analyze("models/mistral-prefill-sdpa.json.gz");
  expect_steps(t, kTwoSteps, 123, 2, 2);
  EXPECT_EQ(count_named(t.regions[0], kCudnnFprop), 2u);
  EXPECT_NE(t.main_kernel.find(kCudnnFprop), std::string::npos) << t.main_kernel;
}

// The step-time table: 2 models x 3 workloads x 5 implementations, the flash ones unavailable on
// the machine with transformers' ImportError, every other one timed.
TEST(RecordedModels, StepTimesCoverEveryModelWorkloadAndImplementation) {
  simdjson::dom::parser parser;
  simdjson::dom::element table = parser.load(fixture("models/step_times.json"));
  EXPECT_EQ(std::string_view(table["device"]), "NVIDIA H200");
  size_t ok = 0;
  size_t unavailable = 0;
  double llama_decode_sdpa = 0;
  double mistral_decode_sdpa = 0;
  for (simdjson::dom::element row : table["rows"].get_array()) {
    const std::string_view impl = row["implementation"];
    const std::string_view status = row["status"];
    if (impl.rfind("flash_attention_", 0) == 0) {
      EXPECT_EQ(status, "unavailable");
      EXPECT_NE(std::string_view(row["error"]).find("ImportError"), std::string_view::npos);
      ++unavailable;
      continue;
    }
    EXPECT_EQ(status, "ok") << impl;
    const double median = row["median_ms"];
    EXPECT_LE(double(row["min_ms"]), median);
    EXPECT_GE(double(row["max_ms"]), median);
    EXPECT_GT(median, 1.0);  // 2 layers launched from Python: milliseconds, not microseconds
    if (impl == "sdpa" && std::string_view(row["workload"]) == "decode") {
      (std::string_view(row["model"]) == "llama" ? llama_decode_sdpa : mistral_decode_sdpa) =
          median;
    }
    ++ok;
  }
  EXPECT_EQ(ok, 18u);
  EXPECT_EQ(unavailable, 12u);
  // The cuDNN plan rebuilt every step shows in the unprofiled times too.
  EXPECT_GT(llama_decode_sdpa, 5 * mistral_decode_sdpa);
}

// A hand-captured graph replayed alone: every activity of a step is the graph's, tied to its
// cudaGraphLaunch by the correlation id; the naive forward is 5 kernels, a copy and a memset.
TEST(RecordedGraphs, EveryActivityOfAReplayIsTiedToItsGraphLaunch) {
  const Trace naive = analyze("graphs/naive-graph-replay.json.gz");
  expect_steps(naive, kThreeReplays, 5, 1, 1);
  for (const Region& r : naive.regions) {
    EXPECT_EQ(count_launched_by(r, "cudaGraphLaunch"), 7u) << r.name;
  }
  EXPECT_EQ(naive.launch_api, "cudaGraphLaunch");
  const Trace sdpa = analyze("graphs/sdpa-graph-replay.json.gz");
  expect_steps(sdpa, kThreeReplays, 1, 0, 1);
  EXPECT_NE(sdpa.main_kernel.find(kCudnnFprop), std::string::npos) << sdpa.main_kernel;
}

// Profiled from before the capture: the capture's step runs none of the captured work (the
// launches inside the capture record no GPU activity), only the two fills with which PyTorch's
// generator registers its state for the graph; the replays then hold the whole forward.
TEST(RecordedGraphs, TheCaptureStepRunsNoneOfTheCapturedKernels) {
  const Trace naive = analyze("graphs/naive-graph-capture.json.gz");
  ASSERT_EQ(naive.regions.size(), 4u);
  EXPECT_EQ(naive.regions[0].kernels, 2);
  EXPECT_EQ(count_launched_by(naive.regions[0], "cudaGraphLaunch"), 0u);
  for (size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(naive.regions[i].name, kCaptureAndReplays[i]);
    EXPECT_EQ(naive.regions[i].kernels, 5);
    EXPECT_EQ(count_launched_by(naive.regions[i], "cudaGraphLaunch"), 7u);
  }
  const Trace decode = analyze("graphs/hf-decode-graph-capture.json.gz");
  ASSERT_EQ(decode.regions.size(), 4u);
  EXPECT_EQ(decode.regions[0].kernels, 2);
  EXPECT_EQ(decode.regions[1].kernels, 128);
}

// A Llama decode step captured by hand with a StaticCache: 126 kernels a replay (two cuDNN
// attentions among them), and outside the graph the serving loop's own argmax, position step and
// token copy.
TEST(RecordedGraphs, AHandCapturedDecodeStepIsOneLaunchOf126Kernels) {
  const Trace t = analyze("graphs/hf-decode-graph-replay.json.gz");
  expect_steps(t, kThreeReplays, 128, 1, 0);
  for (const Region& r : t.regions) {
    EXPECT_EQ(count_launched_by(r, "cudaGraphLaunch"), 126u) << r.name;
    EXPECT_EQ(count_launched_by(r, "cudaLaunchKernel"), 2u) << r.name;
    EXPECT_EQ(count_launched_by(r, "cudaMemcpyAsync"), 1u) << r.name;
    EXPECT_EQ(count_named(r, kCudnnDecode), 2u) << r.name;
  }
}

// torch.compile(mode="reduce-overhead") of the same step: Inductor fuses it to 45 graph
// activities; its first profiled call records the CUDA graph tree and runs it (50 kernels).
TEST(RecordedGraphs, ReduceOverheadReplaysInductorsGraphOf45Activities) {
  const Trace replay = analyze("graphs/hf-decode-compiled-replay.json.gz");
  expect_steps(replay, kThreeReplays, 48, 1, 0);
  for (const Region& r : replay.regions) {
    EXPECT_EQ(count_launched_by(r, "cudaGraphLaunch"), 45u) << r.name;
    EXPECT_EQ(count_named(r, kCudnnDecode), 2u) << r.name;
  }
  const Trace capture = analyze("graphs/hf-decode-compiled-capture.json.gz");
  ASSERT_EQ(capture.regions.size(), 4u);
  EXPECT_EQ(capture.regions[0].kernels, 50);
  EXPECT_EQ(capture.regions[1].kernels, 48);
}

// torch.compile's default mode on the naive variant: Inductor's three kernels (two GEMMs around a
// fused masked softmax) and a memset, inside the user's `forward` regions.
TEST(RecordedGraphs, CompiledNaiveAttentionIsTwoGemmsAroundAFusedSoftmax) {
  const Trace t = analyze("graphs/naive-compiled.json.gz", "--region forward");
  ASSERT_EQ(t.regions.size(), 3u);
  for (const Region& r : t.regions) {
    EXPECT_EQ(r.kernels, 3) << r.name;
    EXPECT_EQ(r.memset, 1) << r.name;
    EXPECT_EQ(count_launched_by(r, "cuLaunchKernel"), 1u) << r.name;
  }
  EXPECT_EQ(t.main_kernel,
            "triton_per_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_0");
}

// What docs/CUDA_GRAPHS.md says of torch 2.11: no _ExperimentalConfig option adds a graph or
// graph node id to the kernels of a replay; enable_cuda_sync_events adds cuda_sync events only.
TEST(RecordedGraphs, NoKinetoOptionWritesAGraphIdOnKernels) {
  simdjson::dom::parser parser;
  simdjson::dom::element report = parser.load(fixture("graphs/kineto_fields.json"));
  size_t options = 0;
  for (auto [option, entry] : report["options"].get_object()) {
    ++options;
    EXPECT_EQ(int64_t(entry["kernels"]), 10) << option;
    EXPECT_EQ(int64_t(entry["graph_launches"]), 2) << option;
    for (simdjson::dom::element key : entry["kernel_arg_keys"].get_array()) {
      EXPECT_EQ(std::string_view(key).find("graph"), std::string_view::npos) << option;
    }
    size_t launch_keys = 0;
    for (simdjson::dom::element key : entry["launch_arg_keys"].get_array()) {
      const std::string_view k = key;
      EXPECT_TRUE(k == "cbid" || k == "correlation") << option << ": " << k;
      ++launch_keys;
    }
    EXPECT_EQ(launch_keys, 2u) << option;
  }
  EXPECT_EQ(options, 9u);  // the default and the 8 boolean options tried
  const Trace sync = analyze("graphs/kineto-enable_cuda_sync_events.json.gz");
  expect_steps(sync, {"ProfilerStep#1", "ProfilerStep#2"}, 5, 1, 1);
}

// One rank of NCCL: no ring or tree kernel; the AVG all-reduce is NCCL's oneRankReduce kernel,
// all-gather, reduce-scatter and all-to-all are device copies, the in-place SUM is nothing.
TEST(RecordedComm, OneRankCollectivesAreACopyOrTheOneRankReduceKernel) {
  for (const char* name : {"comm/comm-serial.json.gz", "comm/comm-overlap.json.gz"}) {
    const Trace t = analyze(name);
    expect_steps(t, kTwoSteps, 9, 3, 4);
    for (const Region& r : t.regions) {
      EXPECT_EQ(count_named(r, "oneRankReduce"), 1u) << name;
      EXPECT_EQ(count_named(r, "ncclDevKernel"), 0u) << name;
      EXPECT_EQ(count_named(r, "nvjet_sm90"), 4u) << name;  // the matmul chain
    }
  }
}

}  // namespace
}  // namespace attnprof
