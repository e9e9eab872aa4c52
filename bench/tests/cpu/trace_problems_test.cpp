// `bench --from-trace`'s reading of a trace into the bench's problems (bench/src/trace_problems.h),
// without LibTorch or a GPU, on the shipped recordings of Hugging Face models (tests/data/models:
// Llama with 16 query heads over 4 KV heads, Mistral with 8 and a window of 256; 2 layers, batch
// 2 x 512 tokens, bf16). The times were read off `attnprof analyze` of each file.

#include <gtest/gtest.h>

#include <string>

#include "trace_problems.h"

namespace attnprof::bench {
namespace {

Result<TraceProblems> read(const std::string& name, const std::string& region = {}) {
  return trace_problems(std::string(ATTNPROF_SOURCE_DIR) + "/tests/data/" + name, region, Limits{},
                        DeviceKind::kCuda);
}

TEST(TraceProblems, ATrainingStepIsOneCallTimedWithItsBackward) {
  Result<TraceProblems> t = read("models/llama-train-sdpa.json.gz");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->regions, 2);
  EXPECT_EQ(t->region.rfind("ProfilerStep#", 0), 0u) << t->region;
  ASSERT_EQ(t->calls.size(), 1u);
  const TraceCall& c = t->calls[0];
  EXPECT_EQ(c.calls, 2);  // one per layer
  EXPECT_EQ(c.backend, "cudnn");
  const Problem& p = c.problem;
  EXPECT_EQ(p.batch, 2);
  EXPECT_EQ(p.heads, 16);
  EXPECT_EQ(p.kv_heads, 4);
  EXPECT_EQ(p.seq, 512);
  EXPECT_EQ(p.q_seq, 512);
  EXPECT_EQ(p.head_dim, 64);
  EXPECT_EQ(p.dtype, Dtype::kBf16);
  EXPECT_EQ(p.mask, MaskKind::kCausal);
  EXPECT_TRUE(p.backward);
  // The forward's 9.3 µs and the backward's 30.1 µs, each a median over the two steps.
  EXPECT_NEAR(c.trace_ns, 39.4e3, 0.3e3);
  EXPECT_TRUE(c.assumed.empty()) << c.assumed;
  EXPECT_GT(t->region_gpu_ns, c.trace_ns * c.calls);
}

TEST(TraceProblems, ADecodeStepIsOneQueryAgainstTheCache) {
  Result<TraceProblems> t = read("models/llama-decode-sdpa.json.gz");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->calls.size(), 1u);
  const Problem& p = t->calls[0].problem;
  EXPECT_EQ(p.q_seq, 1);
  EXPECT_GT(p.seq, 512);  // the prompt and the tokens decoded before the step
  EXPECT_EQ(p.kv_heads, 4);
  EXPECT_EQ(p.mask, MaskKind::kNone);
  EXPECT_FALSE(p.backward);
  EXPECT_EQ(t->calls[0].calls, 2);
}

TEST(TraceProblems, AnEagerModelsChainIsTimedWithItsMaskAsATensor) {
  Result<TraceProblems> t = read("models/llama-prefill-eager.json.gz");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->calls.size(), 1u);
  const TraceCall& c = t->calls[0];
  EXPECT_EQ(c.backend, "unfused");
  EXPECT_EQ(c.problem.mask, MaskKind::kExplicit);
  EXPECT_EQ(c.problem.seq, 512);
  EXPECT_NE(c.assumed.find("unfused chain"), std::string::npos) << c.assumed;
}

TEST(TraceProblems, ATraceWithoutShapesOrAttentionIsOneLine) {
  // Naive attention replayed from a CUDA graph, recorded without shapes.
  Result<TraceProblems> graph = read("cuda_graph.json.gz");
  ASSERT_FALSE(graph.ok());
  EXPECT_NE(graph.error().message.find("--from-trace"), std::string::npos);
  EXPECT_EQ(graph.error().message.find('\n'), std::string::npos) << graph.error().message;
  Result<TraceProblems> missing = read("models/llama-decode-sdpa.json.gz", "no-such-region");
  EXPECT_FALSE(missing.ok());
}

}  // namespace
}  // namespace attnprof::bench
