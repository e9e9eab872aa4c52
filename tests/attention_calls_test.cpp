// The attention calls of real H200 recordings (tests/data/README.md): the backend, the shapes the
// recorder built (scripts/gpu/record_models.py: 2 layers, 16 query heads of 64, llama 4 KV heads,
// mistral 8 with a 256-token window, batch 2, 512 tokens; the study: B=4, H=16, S=2048, D=64,
// causal), one call per layer and pass in each step, and FLOPs equal to a brute-force count of
// the pairs for those shapes (docs/ATTENTION_CALLS.md).

#include <algorithm>
#include <map>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "analysis/attention/attention_backend.h"
#include "analysis/attention/attention_calls.h"
#include "attnprof/analysis.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::fixture;

TraceAnalysis analyze(const std::string& name) {
  auto r = analyze_file(fixture(name), AnalyzeOptions{});
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : TraceAnalysis{};
}

// Query-key pairs one at a time: query i at position i sees keys 0..i when causal.
double brute_pairs(int64_t q_len, int64_t kv_len, bool causal) {
  double pairs = 0;
  for (int64_t i = 0; i < q_len; ++i)
    for (int64_t j = 0; j < kv_len; ++j) pairs += !causal || j <= i;
  return pairs;
}

// Two products (Q K^T and P V) of head_dim multiply-adds per visible pair, batch and query head.
double attention_flops(int64_t batch, int64_t heads, int64_t q_len, int64_t kv_len,
                       int64_t head_dim, bool causal) {
  return 2.0 * 2.0 * static_cast<double>(batch * heads * head_dim) *
         brute_pairs(q_len, kv_len, causal);
}

void expect_shape(const AttentionCall& c, int64_t batch, int64_t heads, int64_t kv_heads,
                  int64_t q_len, int64_t kv_len, int64_t head_dim) {
  EXPECT_EQ(c.batch, batch);
  EXPECT_EQ(c.heads, heads);
  EXPECT_EQ(c.kv_heads, kv_heads);
  EXPECT_EQ(c.q_len, q_len);
  EXPECT_EQ(c.kv_len, kv_len);
  EXPECT_EQ(c.head_dim, head_dim);
}

// Attention's GPU time is part of the region's, and each call's part of attention's.
void expect_times_add_up(const TraceAnalysis& t) {
  for (const RegionSummary& r : t.regions) {
    int64_t calls = 0;
    for (const AttentionCall& c : r.attention.calls) {
      EXPECT_GT(c.gpu_ns, 0) << c.op;
      calls += c.gpu_ns;
    }
    EXPECT_LE(r.attention.gpu_ns, r.gpu_busy_ns);
    EXPECT_LE(r.attention.gpu_ns, calls);
    EXPECT_GT(r.attention.gpu_ns, 0);
  }
}

TEST(AttentionCalls, LlamaPrefillSdpaRunsCudnnOncePerLayer) {
  const TraceAnalysis t = analyze("models/llama-prefill-sdpa.json.gz");
  ASSERT_EQ(t.regions.size(), 2u);
  for (const RegionSummary& r : t.regions) {
    ASSERT_EQ(r.attention.calls.size(), 2u) << r.name;  // 2 layers
    for (const AttentionCall& c : r.attention.calls) {
      EXPECT_EQ(c.op, "aten::scaled_dot_product_attention");
      EXPECT_EQ(c.backend_op, "aten::_cudnn_attention_forward");
      EXPECT_EQ(c.backend, AttentionBackend::kCudnn);
      EXPECT_FALSE(c.backward);
      expect_shape(c, 2, 16, 4, 512, 512, 64);
      EXPECT_EQ(c.dtype, "bf16");
      EXPECT_EQ(c.causal, true);
      EXPECT_FALSE(c.window);
      EXPECT_FALSE(c.explicit_mask);
      ASSERT_TRUE(c.flops);
      EXPECT_EQ(*c.flops, attention_flops(2, 16, 512, 512, 64, true));
      EXPECT_EQ(c.kernels, 1);
      EXPECT_NE(c.main_kernel.find("cudnn_generated_fort_native_sdpa_sm90"), std::string::npos);
      // An H200 (datasheet: bf16 dense 989.4 TFLOP/s, 4800 GB/s): the roof is the lower of the
      // peak and the bandwidth times the call's FLOPs per byte; 512 tokens sit at about 205
      // FLOP/B, just under the ridge (206), so the bandwidth side is the roof.
      ASSERT_TRUE(c.bytes);
      const double roof = std::min(989.4, 4800.0 * *c.flops / *c.bytes / 1e3);
      EXPECT_EQ(c.roof.starts_with("memory 4800 GB/s"), roof < 989.4) << c.roof;
      ASSERT_TRUE(c.roof_pct);
      EXPECT_NEAR(*c.roof_pct, 100.0 * *c.tflops() / roof, 1e-9);
    }
  }
  expect_times_add_up(t);
  // Every region holds the same calls: the medians are over both.
  EXPECT_TRUE(t.attention.same_in_every_region);
  EXPECT_EQ(t.attention.regions, 2);
  ASSERT_TRUE(t.attention.share_pct);
  EXPECT_GT(*t.attention.share_pct, 0);
  EXPECT_LT(*t.attention.share_pct, 100);
}

TEST(AttentionCalls, LlamaTrainSdpaHasTheBackwardAtTwoAndAHalfTimesTheForward) {
  const TraceAnalysis t = analyze("models/llama-train-sdpa.json.gz");
  ASSERT_EQ(t.regions.size(), 2u);
  const double forward = attention_flops(2, 16, 512, 512, 64, true);
  for (const RegionSummary& r : t.regions) {
    ASSERT_EQ(r.attention.calls.size(), 4u) << r.name;  // 2 layers, forward and backward
    for (size_t i = 0; i < 4; ++i) {
      const AttentionCall& c = r.attention.calls[i];
      const bool backward = i >= 2;  // in GPU order: both forwards, then both backwards
      EXPECT_EQ(c.backward, backward) << i;
      EXPECT_EQ(c.backend, AttentionBackend::kCudnn) << i;
      EXPECT_EQ(c.backend_op,
                backward ? "aten::_cudnn_attention_backward" : "aten::_cudnn_attention_forward");
      expect_shape(c, 2, 16, 4, 512, 512, 64);
      EXPECT_EQ(c.causal, true);
      ASSERT_TRUE(c.flops);
      EXPECT_EQ(*c.flops, backward ? 2.5 * forward : forward);
    }
    // cuDNN's backward runs its helper kernels under the same op: one call, several kernels.
    EXPECT_GT(r.attention.calls[2].kernels, 1);
  }
  expect_times_add_up(t);
}

TEST(AttentionCalls, LlamaDecodeSdpaSeesOneQueryAgainstTheGrowingCache) {
  const TraceAnalysis t = analyze("models/llama-decode-sdpa.json.gz");
  ASSERT_EQ(t.regions.size(), 2u);
  std::vector<int64_t> keys;
  for (const RegionSummary& r : t.regions) {
    ASSERT_EQ(r.attention.calls.size(), 2u);
    for (const AttentionCall& c : r.attention.calls) {
      EXPECT_EQ(c.backend, AttentionBackend::kCudnn);
      ASSERT_TRUE(c.kv_len);
      expect_shape(c, 2, 16, 4, 1, *c.kv_len, 64);
      // A Hugging Face decode step passes is_causal=False and no mask: every cached key.
      EXPECT_EQ(c.causal, false);
      ASSERT_TRUE(c.flops);
      EXPECT_EQ(*c.flops, attention_flops(2, 16, 1, *c.kv_len, 64, false));
      // One query against the cache: a few FLOPs per byte, so the memory bandwidth is the roof.
      EXPECT_TRUE(c.roof.starts_with("memory ")) << c.roof;
      ASSERT_TRUE(c.roof_pct);
      EXPECT_GT(*c.roof_pct, 0);
      EXPECT_LT(*c.roof_pct, 100);
    }
    keys.push_back(*r.attention.calls[0].kv_len);
  }
  // One token a step: the second step's cache is one key longer (tests/data/README.md).
  EXPECT_EQ(keys[1], keys[0] + 1);
  EXPECT_GE(keys[0], 512);
  expect_times_add_up(t);
}

TEST(AttentionCalls, MistralsWindowIsAMaskTensorSoCausalAndWindowAreUnknown) {
  for (const char* name :
       {"models/mistral-prefill-sdpa.json.gz", "models/mistral-decode-sdpa.json.gz"}) {
    SCOPED_TRACE(name);
    const TraceAnalysis t = analyze(name);
    const bool decode = std::string(name).find("decode") != std::string::npos;
    for (const RegionSummary& r : t.regions) {
      ASSERT_EQ(r.attention.calls.size(), 2u);
      for (const AttentionCall& c : r.attention.calls) {
        EXPECT_EQ(c.backend, AttentionBackend::kCudnn);
        // transformers repeats K and V to the 16 query heads before a masked SDPA call: the
        // call computed 16 KV heads, and the recorded inputs say so.
        expect_shape(c, 2, 16, 16, decode ? 1 : 512, decode ? 256 : 512, 64);
        EXPECT_TRUE(c.explicit_mask);
        EXPECT_FALSE(c.causal);
        EXPECT_FALSE(c.window);
        ASSERT_TRUE(c.flops);
        EXPECT_EQ(*c.flops,
                  attention_flops(2, 16, decode ? 1 : 512, decode ? 256 : 512, 64, false));
        EXPECT_NE(c.assumed.find("explicit mask"), std::string::npos) << c.assumed;
      }
    }
    expect_times_add_up(t);
  }
}

TEST(AttentionCalls, EagerLlamaIsAnUnfusedChainWithItsProductsShapes) {
  const TraceAnalysis t = analyze("models/llama-prefill-eager.json.gz");
  // The same model through SDPA, which takes the KV heads as they are (enable_gqa).
  const TraceAnalysis sdpa = analyze("models/llama-prefill-sdpa.json.gz");
  ASSERT_FALSE(sdpa.regions.empty());
  ASSERT_FALSE(sdpa.regions[0].attention.calls.empty());
  const AttentionCall& fused = sdpa.regions[0].attention.calls[0];
  for (const RegionSummary& r : t.regions) {
    ASSERT_EQ(r.attention.calls.size(), 2u);
    for (const AttentionCall& c : r.attention.calls) {
      EXPECT_EQ(c.heads, fused.heads);
      EXPECT_EQ(c.kv_heads, fused.kv_heads);
    }
    for (const AttentionCall& c : r.attention.calls) {
      EXPECT_EQ(c.backend, AttentionBackend::kUnfused);
      EXPECT_TRUE(c.op.starts_with("aten::matmul")) << c.op;
      EXPECT_NE(c.op.find("aten::softmax"), std::string::npos) << c.op;
      // The products read K after repeat_kv (16 heads); the expand before them says the model
      // has 4 KV heads (scripts/gpu/record_models.py: num_key_value_heads=4), as the SDPA rows
      // of the same model say.
      expect_shape(c, 2, 16, 4, 512, 512, 64);
      EXPECT_NE(c.assumed.find("K and V repeated from 4 to 16 heads"), std::string::npos)
          << c.assumed;
      EXPECT_EQ(c.dtype, "bf16");
      EXPECT_FALSE(c.causal);  // the mask is added to the scores: not recorded
      ASSERT_TRUE(c.flops);
      EXPECT_EQ(*c.flops, attention_flops(2, 16, 512, 512, 64, false));
      EXPECT_GE(c.kernels, 3);  // two GEMMs and a softmax at least
    }
  }
  expect_times_add_up(t);
}

// train_step.json.gz trains naive attention (tests/data/README.md: B=2, H=16, S=512, D=64): its
// backward chain of BmmBackward0 / SoftmaxBackward0 records only gradients' shapes; the fwdbwd
// flows lead to the forward's products, whose shapes and count (2.5 x) the backward takes.
TEST(AttentionCalls, AnUnfusedBackwardTakesItsForwardsShapesThroughTheFlows) {
  const TraceAnalysis t = analyze("train_step.json.gz");
  ASSERT_FALSE(t.regions.empty());
  for (const RegionSummary& r : t.regions) {
    ASSERT_EQ(r.attention.calls.size(), 2u) << r.name;
    const AttentionCall& forward = r.attention.calls[0];
    const AttentionCall& backward = r.attention.calls[1];
    EXPECT_FALSE(forward.backward);
    EXPECT_TRUE(backward.backward);
    EXPECT_EQ(backward.backend, AttentionBackend::kUnfused);
    EXPECT_TRUE(backward.op.starts_with("BmmBackward0")) << backward.op;
    expect_shape(forward, 2, 16, 16, 512, 512, 64);
    expect_shape(backward, 2, 16, 16, 512, 512, 64);
    ASSERT_TRUE(forward.flops);
    ASSERT_TRUE(backward.flops);
    EXPECT_EQ(*forward.flops, attention_flops(2, 16, 512, 512, 64, false));
    EXPECT_EQ(*backward.flops, 2.5 * attention_flops(2, 16, 512, 512, 64, false));
    EXPECT_NE(backward.assumed.find("backward: 2.5 x the forward"), std::string::npos);
  }
}

TEST(AttentionCalls, FlexAttentionCountsEveryPairOfItsUnrecordedBlockMask) {
  const TraceAnalysis t = analyze("models/llama-prefill-flex_attention.json.gz");
  for (const RegionSummary& r : t.regions) {
    ASSERT_EQ(r.attention.calls.size(), 2u);
    for (const AttentionCall& c : r.attention.calls) {
      EXPECT_EQ(c.backend, AttentionBackend::kFlex);
      EXPECT_TRUE(c.op.starts_with("triton_tem_fused_flex_attention")) << c.op;
      expect_shape(c, 2, 16, 4, 512, 512, 64);
      EXPECT_FALSE(c.causal);
      ASSERT_TRUE(c.flops);
      EXPECT_EQ(*c.flops, attention_flops(2, 16, 512, 512, 64, false));
      EXPECT_NE(c.assumed.find("upper bound"), std::string::npos) << c.assumed;
    }
  }
  expect_times_add_up(t);
}

TEST(AttentionCalls, StudyVariantsNameTheirSdpaBackend) {
  const double flops = attention_flops(4, 16, 2048, 2048, 64, true);  // 34.4 GFLOP
  const std::vector<std::pair<std::string, AttentionBackend>> variants = {
      {"study_sdpa-math.json.gz", AttentionBackend::kMath},
      {"study_sdpa-efficient.json.gz", AttentionBackend::kEfficient},
      {"study_sdpa-flash.json.gz", AttentionBackend::kFlash},
      {"study_sdpa-cudnn.json.gz", AttentionBackend::kCudnn},
      {"study_naive.json.gz", AttentionBackend::kUnfused},
      {"study_inplace.json.gz", AttentionBackend::kUnfused}};
  for (const auto& [name, backend] : variants) {
    SCOPED_TRACE(name);
    const TraceAnalysis t = analyze(name);
    ASSERT_EQ(t.regions.size(), 3u);
    for (const RegionSummary& r : t.regions) {
      ASSERT_EQ(r.attention.calls.size(), 1u);
      const AttentionCall& c = r.attention.calls[0];
      EXPECT_EQ(c.backend, backend);
      expect_shape(c, 4, 16, 16, 2048, 2048, 64);
      ASSERT_TRUE(c.flops);
      if (backend == AttentionBackend::kUnfused) {
        // The naive chain computes every pair; the mask only hides them afterwards.
        EXPECT_EQ(*c.flops, attention_flops(4, 16, 2048, 2048, 64, false));
      } else {
        EXPECT_EQ(c.causal, true);
        EXPECT_EQ(*c.flops, flops);
      }
    }
    // The math backend was pinned: no recorded input rules the fused ones out.
    const std::string& note = t.regions[0].attention.calls[0].note;
    if (backend == AttentionBackend::kMath)
      EXPECT_NE(note.find("likely disabled"), std::string::npos) << note;
    else
      EXPECT_EQ(note, "");
  }
}

TEST(AttentionCalls, GraphReplaysWithoutTheirCaptureKeepTheirKernelsBackend) {
  // Replays alone: their kernels' ops are unknown, so each cuDNN kernel is a call of its own,
  // with no shapes. With the capture, replays take the captured SDPA ops and their shapes.
  const TraceAnalysis replay = analyze("graphs/hf-decode-graph-replay.json.gz");
  const TraceAnalysis capture = analyze("graphs/hf-decode-graph-capture.json.gz");
  ASSERT_FALSE(replay.regions.empty());
  for (const RegionSummary& r : replay.regions) {
    ASSERT_EQ(r.attention.calls.size(), 2u);
    for (const AttentionCall& c : r.attention.calls) {
      EXPECT_EQ(c.backend, AttentionBackend::kCudnn);
      EXPECT_FALSE(c.heads);
      EXPECT_FALSE(c.flops);
    }
  }
  ASSERT_EQ(capture.regions.size(), 4u);
  for (size_t i = 1; i < capture.regions.size(); ++i) {  // #0 captures, #1-#3 replay
    const RegionSummary& r = capture.regions[i];
    ASSERT_EQ(r.attention.calls.size(), 2u);
    for (const AttentionCall& c : r.attention.calls) {
      EXPECT_EQ(c.backend, AttentionBackend::kCudnn);
      EXPECT_EQ(c.op, "aten::scaled_dot_product_attention");
      // Under a StaticCache, transformers passes a mask over the cache's 1024 slots and repeats
      // K and V to the query heads first.
      expect_shape(c, 2, 16, 16, 1, 1024, 64);
      EXPECT_TRUE(c.explicit_mask);
      ASSERT_TRUE(c.flops);
      EXPECT_EQ(*c.flops, attention_flops(2, 16, 1, 1024, 64, false));
    }
  }
  const TraceAnalysis compiled = analyze("graphs/hf-decode-compiled-replay.json.gz");
  for (const RegionSummary& r : compiled.regions) {
    ASSERT_EQ(r.attention.calls.size(), 2u);
    EXPECT_EQ(r.attention.calls[0].backend, AttentionBackend::kCudnn);
    EXPECT_TRUE(r.attention.calls[0].op.starts_with("Torch-Compiled Region"));
  }
}

// Regions that hold the same work share one list of calls while they are made: the medians weigh
// each distinct list by its regions (the same figures as one copy a region), and without
// attention_of_every_region only the typical region keeps its list.
TEST(AttentionCalls, SharedListsGiveTheMediansOfOneCopyARegion) {
  const TraceAnalysis t = analyze("models/llama-train-sdpa.json.gz");
  ASSERT_GE(t.regions.size(), 2u);
  // Three lists (the first region's, two with their first call slower), each given by two
  // regions: shared (pointers repeat) and copied.
  std::vector<AttentionCalls> lists(3, t.regions[0].attention);
  lists[1].calls[0].gpu_ns += 5'000;  // a middle value that the median must land on
  lists[2].calls[0].gpu_ns += 9'000;
  std::vector<AttentionCalls> copies;
  std::vector<const AttentionCalls*> shared, copied;
  std::vector<int64_t> busy;
  for (size_t i = 0; i < 6; ++i) copies.push_back(lists[i / 2]);
  for (size_t i = 0; i < 6; ++i) {
    shared.push_back(&lists[i / 2]);
    copied.push_back(&copies[i]);
    busy.push_back(t.regions[0].gpu_busy_ns);
  }
  // Five regions (an odd count) and six (an even one: the mean of the two middle values).
  for (size_t n : {size_t{5}, size_t{6}}) {
    SCOPED_TRACE(n);
    const std::vector<const AttentionCalls*> a(shared.begin(), shared.begin() + n);
    const std::vector<const AttentionCalls*> b(copied.begin(), copied.begin() + n);
    const std::vector<int64_t> w(busy.begin(), busy.begin() + n);
    const MedianAttentionCalls from_shared = median_attention_calls(a, w, 0);
    const MedianAttentionCalls from_copies = median_attention_calls(b, w, 0);
    ASSERT_TRUE(from_shared.same_in_every_region);
    ASSERT_EQ(from_shared.calls.size(), from_copies.calls.size());
    for (size_t i = 0; i < from_shared.calls.size(); ++i)
      EXPECT_EQ(from_shared.calls[i].gpu_ns, from_copies.calls[i].gpu_ns) << i;
    EXPECT_EQ(from_shared.gpu_ns, from_copies.gpu_ns);
  }
  // The first call's median over 5 (values x, x, x+5, x+5, x+9): x+5 µs; over 6: x+5 too.
  const int64_t x = lists[0].calls[0].gpu_ns;
  EXPECT_EQ(median_attention_calls(shared, busy, 0).calls[0].gpu_ns, x + 5'000);
  const std::vector<const AttentionCalls*> four(shared.begin(), shared.begin() + 4);
  EXPECT_EQ(median_attention_calls(four, {busy.begin(), busy.begin() + 4}, 0).calls[0].gpu_ns,
            x + 2'500);

  AnalyzeOptions typical_only;
  typical_only.attention_of_every_region = false;
  auto lean = analyze_file(fixture("models/llama-train-sdpa.json.gz"), typical_only);
  ASSERT_TRUE(lean.ok()) << lean.error().message;
  const auto typical = static_cast<size_t>(lean->typical_region);
  for (size_t r = 0; r < lean->regions.size(); ++r)
    EXPECT_EQ(lean->regions[r].attention.calls.size(),
              r == typical ? t.regions[r].attention.calls.size() : 0u)
        << r;
  ASSERT_EQ(lean->attention.calls.size(), t.attention.calls.size());
  for (size_t i = 0; i < t.attention.calls.size(); ++i)
    EXPECT_EQ(lean->attention.calls[i].gpu_ns, t.attention.calls[i].gpu_ns);
  EXPECT_EQ(lean->attention.share_pct, t.attention.share_pct);
}

TEST(AttentionCalls, ATraceWithoutAttentionHasNoCalls) {
  const TraceAnalysis t = analyze("foreign/cnn_train.json.gz");
  for (const RegionSummary& r : t.regions) EXPECT_TRUE(r.attention.calls.empty());
  EXPECT_TRUE(t.attention.calls.empty());
  EXPECT_EQ(t.attention.gpu_ns, 0);
}

// tests/data/op_families: SDPA pinned to each backend, one `case: NAME` annotation per problem,
// and op_families.json with each problem's shapes and FLOPs counted by brute force on the GPU
// machine (scripts/gpu/record_op_families.py).
TEST(AttentionCalls, PinnedBackendsMatchTheRecordersBruteForceCounts) {
  simdjson::dom::parser parser;
  simdjson::dom::element cases_doc;
  ASSERT_EQ(parser.load(fixture("op_families/op_families.json")).get(cases_doc), simdjson::SUCCESS);
  const std::vector<std::pair<std::string, AttentionBackend>> traces = {
      {"sdpa-math.json.gz", AttentionBackend::kMath},
      {"sdpa-efficient.json.gz", AttentionBackend::kEfficient},
      {"sdpa-flash.json.gz", AttentionBackend::kFlash},
      {"sdpa-cudnn.json.gz", AttentionBackend::kCudnn}};
  size_t checked = 0;
  for (const auto& [trace, backend] : traces) {
    AnalyzeOptions options;
    options.region_pattern = "case: *";
    auto r = analyze_file(fixture("op_families/" + trace), options);
    ASSERT_TRUE(r.ok());
    for (simdjson::dom::element c : cases_doc["cases"].get_array()) {
      // Each problem once, by the math backend's trace, which runs them all ("trace" is null
      // for a backend that refused one).
      std::string_view listed;
      if (c["trace"].get_string().get(listed) != simdjson::SUCCESS || listed != "sdpa-math.json.gz")
        continue;
      const std::string name(c["case"].get_string().value());
      const RegionSummary* region = nullptr;
      for (const RegionSummary& s : r.value().regions)
        if (s.name == "case: " + name) region = &s;
      if (!region)
        continue;  // a problem the backend does not take (flash: a top-left causal
                   // mask with fewer queries than keys)
      SCOPED_TRACE(trace + " " + name);
      ASSERT_FALSE(region->attention.calls.empty());
      const AttentionCall& call = region->attention.calls[0];
      EXPECT_EQ(call.backend, backend);
      EXPECT_FALSE(call.backward);
      expect_shape(call, c["batch"].get_int64(), c["heads"].get_int64(), c["kv_heads"].get_int64(),
                   c["q_len"].get_int64(), c["kv_len"].get_int64(), c["head_dim"].get_int64());
      ASSERT_TRUE(call.flops);
      // A mask tensor's contents are not recorded: every pair is counted (docs/OP_COSTS.md).
      // Efficient's and flash's own ops take a lower-right causal mask as a flag, and count it.
      if (call.explicit_mask) {
        EXPECT_TRUE(c["explicit_mask"].get_bool().value());
        EXPECT_EQ(*call.flops, attention_flops(c["batch"].get_int64(), c["heads"].get_int64(),
                                               c["q_len"].get_int64(), c["kv_len"].get_int64(),
                                               c["head_dim"].get_int64(), false));
      } else {
        EXPECT_EQ(*call.flops, static_cast<double>(c["flops_forward"].get_int64().value()));
      }
      if (name == "causal_backward") {
        ASSERT_GE(region->attention.calls.size(), 2u);
        const AttentionCall& back = region->attention.calls[1];
        EXPECT_TRUE(back.backward);
        // The math backend's backward is autograd's, op by op: a chain of autograd functions,
        // which the trace's fwdbwd flows tie to the math forward, so it takes the forward's
        // shapes and its count at 2.5 x, as the fused backends' backward ops do.
        EXPECT_EQ(back.backend, backend);
        expect_shape(back, c["batch"].get_int64(), c["heads"].get_int64(),
                     c["kv_heads"].get_int64(), c["q_len"].get_int64(), c["kv_len"].get_int64(),
                     c["head_dim"].get_int64());
        EXPECT_EQ(back.causal, true);
        ASSERT_TRUE(back.flops);
        EXPECT_EQ(*back.flops, static_cast<double>(c["flops_backward"].get_int64().value()));
        if (backend == AttentionBackend::kMath) {
          EXPECT_NE(back.op.find("BmmBackward0"), std::string::npos) << back.op;
          EXPECT_NE(back.note.find("aten::_scaled_dot_product_attention_math"), std::string::npos)
              << back.note;
        }
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 25u);
}

// SDPA's own choice (tests/data/op_families/sdpa-default.json.gz): fp64 inputs leave only the
// math backend, and the call says why; fp32 and a head dim of 512 go to the efficient one.
TEST(AttentionCalls, DefaultDispatchSaysWhyItFellBackToMath) {
  AnalyzeOptions options;
  options.region_pattern = "case: *";
  auto r = analyze_file(fixture("op_families/sdpa-default.json.gz"), options);
  ASSERT_TRUE(r.ok());
  std::map<std::string, const AttentionCall*> by_case;
  for (const RegionSummary& s : r.value().regions) {
    ASSERT_EQ(s.attention.calls.size(), 1u) << s.name;
    by_case[s.name] = &s.attention.calls[0];
  }
  ASSERT_EQ(by_case.size(), 5u);
  EXPECT_EQ(by_case["case: bf16_causal"]->backend, AttentionBackend::kCudnn);
  EXPECT_EQ(by_case["case: bf16_bool_mask"]->backend, AttentionBackend::kCudnn);
  EXPECT_EQ(by_case["case: fp32_causal"]->backend, AttentionBackend::kEfficient);
  EXPECT_EQ(by_case["case: bf16_head_dim_512"]->backend, AttentionBackend::kEfficient);
  const AttentionCall& fp64 = *by_case["case: fp64_causal"];
  EXPECT_EQ(fp64.backend, AttentionBackend::kMath);
  EXPECT_EQ(fp64.dtype, "fp64");
  EXPECT_NE(fp64.note.find("fell back to its math backend"), std::string::npos) << fp64.note;
  EXPECT_NE(fp64.note.find("fp64 inputs"), std::string::npos) << fp64.note;
  for (const auto& [name, call] : by_case)
    if (call->backend != AttentionBackend::kMath) {
      EXPECT_EQ(call->note, "") << name;
    }
}

// The implementations no recording here ran (FA2/3/4, xformers, FlashInfer, Triton), by the names
// their ops and kernels have.
TEST(AttentionBackend, TellsImplementationsApartByOpAndKernelNames) {
  using B = AttentionBackend;
  EXPECT_EQ(detect_attention_backend("flash_attn::_flash_attn_forward",
                                     {"void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, "
                                      "128, 128, 4, false, false, cutlass::bfloat16_t>>(...)"}),
            B::kFa2);
  EXPECT_EQ(detect_attention_backend("aten::_flash_attention_forward",
                                     {"void cutlass::device_kernel<flash::enable_sm90_or_later<"
                                      "flash::FlashAttnFwdSm90<...>>>(...)"}),
            B::kFa3);
  EXPECT_EQ(detect_attention_backend(
                "aten::_flash_attention_forward",
                {"kernel_cutlass_kernel_flash_attncuteflash_fwd_sm100FlashAttentionForwardSm100"}),
            B::kFa4);
  EXPECT_EQ(detect_attention_backend("xformers::efficient_attention_forward_cutlass",
                                     {"fmha_cutlassF_bf16_aligned_64x64_rf_sm80"}),
            B::kXformers);
  EXPECT_EQ(detect_attention_backend("", {"void flashinfer::BatchPrefillWithPagedKVCacheKernel<"
                                          "...>(...)"}),
            B::kFlashInfer);
  EXPECT_EQ(detect_attention_backend("", {"_attn_fwd"}), B::kTriton);
  EXPECT_EQ(detect_attention_backend("aten::_efficient_attention_forward",
                                     {"fmha_cutlassF_bf16_aligned_64x64_rf_sm80"}),
            B::kEfficient);
  // FlexAttention's split-KV reductions are not attention kernels; its template is.
  EXPECT_FALSE(is_attention_kernel("triton_red_fused_flex_attention_1"));
  EXPECT_TRUE(is_attention_kernel("triton_tem_fused_flex_attention_0"));
  EXPECT_FALSE(is_attention_kernel("ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_tn"));
  EXPECT_TRUE(is_attention_op("flashinfer::single_prefill_with_kv_cache"));
  EXPECT_FALSE(is_attention_op("aten::matmul"));
}

OpArgument tensor(std::vector<int64_t> dims, std::string type = "c10::BFloat16") {
  return {std::move(dims), std::move(type), ""};
}
OpArgument scalar(std::string value) {
  return {{}, "Scalar", std::move(value)};
}

// aten::scaled_dot_product_attention's arguments as the traces spell them: query, key, value,
// attn_mask, dropout_p, is_causal, scale, enable_gqa.
std::vector<OpArgument> sdpa_args(std::string type, int64_t head_dim, bool mask,
                                  std::string dropout) {
  return {tensor({2, 16, 512, head_dim}, type),
          tensor({2, 16, 512, head_dim}, type),
          tensor({2, 16, 512, head_dim}, type),
          mask ? tensor({2, 1, 512, 512}, "bool") : OpArgument{},
          scalar(std::move(dropout)),
          scalar("False"),
          OpArgument{},
          scalar("False")};
}

TEST(AttentionCalls, MathFallbackNamesWhatRulesTheFusedBackendsOut) {
  const std::string mask = math_fallback_note(sdpa_args("c10::BFloat16", 64, true, "0."));
  EXPECT_NE(mask.find("explicit attn_mask"), std::string::npos) << mask;
  EXPECT_EQ(mask.find("fp32"), std::string::npos) << mask;
  const std::string fp32 = math_fallback_note(sdpa_args("float", 64, false, "0."));
  EXPECT_NE(fp32.find("fp32 inputs"), std::string::npos) << fp32;
  EXPECT_EQ(fp32.find("attn_mask"), std::string::npos) << fp32;
  const std::string head = math_fallback_note(sdpa_args("c10::BFloat16", 320, false, "0."));
  EXPECT_NE(head.find("head dim 320"), std::string::npos) << head;
  const std::string dropout = math_fallback_note(sdpa_args("c10::BFloat16", 64, false, "0.1"));
  EXPECT_NE(dropout.find("dropout_p 0.1"), std::string::npos) << dropout;
  const std::string none = math_fallback_note(sdpa_args("c10::BFloat16", 64, false, "0."));
  EXPECT_NE(none.find("likely disabled"), std::string::npos) << none;
}

}  // namespace
}  // namespace attnprof
