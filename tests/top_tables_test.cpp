// The top tables (attnprof/top_tables.h, docs/top-tables.md): inline traces for the rules (nested
// modules, ops under ops, a region without GPU work), the real train step for the end to end.

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "attnprof/analysis.h"
#include "test_support.h"

namespace attnprof {
namespace {

template <typename Row>
const Row* row(const std::vector<Row>& rows, const std::string& name) {
  auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.name == name; });
  return it == rows.end() ? nullptr : &*it;
}

// One step: Seq_0 holds Seq_1 (a module of the same class) which holds Linear_0; Linear_1 runs
// after Seq_1 inside Seq_0. aten::linear -> aten::addmm launches kernel k1 (10 µs) inside
// Linear_0, aten::mul launches k2 (5 µs) inside Linear_1; an aten::copy_ under an aten::copy_
// launches k2 again (7 µs) outside every module. The second step has no GPU work.
constexpr const char* kNested = R"json({"traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
  {"ph": "X", "cat": "python_function", "name": "nn.Module: Seq_0", "pid": 1, "tid": 1, "ts": 10, "dur": 500},
  {"ph": "X", "cat": "python_function", "name": "nn.Module: Seq_1", "pid": 1, "tid": 1, "ts": 20, "dur": 200},
  {"ph": "X", "cat": "python_function", "name": "nn.Module: Linear_0", "pid": 1, "tid": 1, "ts": 30, "dur": 100},
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 40, "dur": 80},
  {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 50, "dur": 60},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 60, "dur": 5, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 100, "dur": 10, "args": {"correlation": 1}},
  {"ph": "X", "cat": "python_function", "name": "nn.Module: Linear_1", "pid": 1, "tid": 1, "ts": 300, "dur": 100},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 1, "ts": 310, "dur": 50},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 320, "dur": 5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 330, "dur": 5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 1, "tid": 1, "ts": 600, "dur": 100},
  {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 1, "tid": 1, "ts": 610, "dur": 40},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 620, "dur": 5, "args": {"correlation": 3}},
  {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 630, "dur": 7, "args": {"correlation": 3}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 2000, "dur": 100},
  {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 2010, "dur": 20}
]})json";

TEST(TopTables, NestedModulesCountEachKernelOncePerRow) {
  testing::TempFile file("nested.json", kNested);
  auto t = analyze_file(file.path(), {});
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->regions.size(), 2u);
  const RegionTables& step = t->regions[0].tables;
  const ModuleTotal* seq0 = row(step.module_instances, "Seq_0");
  const ModuleTotal* seq1 = row(step.module_instances, "Seq_1");
  const ModuleTotal* linear0 = row(step.module_instances, "Linear_0");
  ASSERT_TRUE(seq0 && seq1 && linear0);
  // k1 is inside all three, k2 inside Seq_0 and Linear_1 only.
  EXPECT_EQ(seq0->gpu_ns, 15'000);
  EXPECT_EQ(seq1->gpu_ns, 10'000);
  EXPECT_EQ(linear0->gpu_ns, 10'000);
  EXPECT_EQ(seq0->depth, 0);
  EXPECT_EQ(seq1->depth, 1);
  EXPECT_EQ(linear0->depth, 2);
  // One level (the two Linears) sums to no more than the GPU work.
  EXPECT_EQ(row(step.module_instances, "Linear_1")->gpu_ns + linear0->gpu_ns, 15'000);
  // The class Seq: k1 once (not once per Seq around it), CPU of the outermost call only.
  const ModuleTotal* seq = row(step.module_classes, "Seq");
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(seq->calls, 2);
  EXPECT_EQ(seq->gpu_ns, 15'000);
  EXPECT_EQ(seq->activities, 2);
  EXPECT_EQ(seq->cpu_ns, 500'000);
  EXPECT_EQ(row(step.module_classes, "Linear")->cpu_ns, 200'000);
}

TEST(TopTables, OpsSelfAndTotalNeverCountTwice) {
  testing::TempFile file("nested.json", kNested);
  auto t = analyze_file(file.path(), {});
  ASSERT_TRUE(t.ok()) << t.error().message;
  const RegionTables& step = t->regions[0].tables;
  const OpTotal* linear = row(step.ops, "aten::linear");
  const OpTotal* addmm = row(step.ops, "aten::addmm");
  const OpTotal* copy = row(step.ops, "aten::copy_");
  ASSERT_TRUE(linear && addmm && copy);
  EXPECT_EQ(linear->cpu_ns, 80'000);
  EXPECT_EQ(linear->self_cpu_ns, 20'000);
  EXPECT_EQ(linear->self_gpu_ns, 0);
  EXPECT_EQ(linear->gpu_ns, 10'000);
  EXPECT_EQ(addmm->self_gpu_ns, 10'000);
  // copy_ under copy_: two calls, 140 µs of CPU in all, 100 µs of it self (60 + 40), and the
  // kernel's 7 µs once, not once per call around it.
  EXPECT_EQ(copy->calls, 2);
  EXPECT_EQ(copy->cpu_ns, 140'000);
  EXPECT_EQ(copy->self_cpu_ns, 100'000);
  EXPECT_EQ(copy->gpu_ns, 7'000);
  EXPECT_EQ(copy->self_gpu_ns, 7'000);
  // Kernels by full name: k2 twice, 12 µs, min 5, max 7.
  const KernelTotal* k2 = row(step.kernels, "k2");
  ASSERT_NE(k2, nullptr);
  EXPECT_EQ(k2->count, 2);
  EXPECT_EQ(k2->total_ns, 12'000);
  EXPECT_EQ(k2->min_ns, 5'000);
  EXPECT_EQ(k2->max_ns, 7'000);
  EXPECT_EQ(step.kernels[0].name, "k2");  // the longest total first
}

TEST(TopTables, RegionWithoutGpuWork) {
  testing::TempFile file("nested.json", kNested);
  auto t = analyze_file(file.path(), {});
  ASSERT_TRUE(t.ok()) << t.error().message;
  const RegionTables& idle = t->regions[1].tables;
  EXPECT_TRUE(idle.kernels.empty());
  EXPECT_TRUE(idle.kernel_classes.empty());
  EXPECT_TRUE(idle.module_instances.empty());
  ASSERT_EQ(idle.ops.size(), 1u);
  EXPECT_EQ(idle.ops[0].gpu_ns, 0);
  auto json = testing::run_cli("analyze --format json " + file.path());
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_NE(json.output.find("\"top_kernels\": []"), std::string::npos) << json.output;
}

TEST(TopTables, ModuleRegions) {
  testing::TempFile file("nested.json", kNested);
  AnalyzeOptions options;
  options.region_pattern = "nn.Module: Linear_*";
  auto t = analyze_file(file.path(), options);
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->regions.size(), 2u);
  EXPECT_EQ(t->regions[0].name, "nn.Module: Linear_0");
  EXPECT_EQ(t->regions[0].kernels, 1);
  EXPECT_EQ(t->regions[1].tables.kernels.at(0).total_ns, 5'000);
}

// The train step recorded with with_stack=True (tests/data/train_step.json.gz).
TEST(TopTables, TrainStepModulesAndDefaultText) {
  const TraceAnalysis t = testing::analyze_fixture("train_step.json.gz");
  const RegionTables& step = t.regions[0].tables;
  const ModuleTotal* attention = row(step.module_instances, "Attention_0");
  ASSERT_NE(attention, nullptr);
  EXPECT_EQ(attention->calls, 1);
  EXPECT_EQ(attention->cpu_ns, 1'035'715);
  EXPECT_EQ(attention->gpu_ns, 111'198);
  EXPECT_EQ(attention->activities, 14);
  const OpTotal* bmm = row(step.ops, "aten::bmm");
  ASSERT_NE(bmm, nullptr);
  EXPECT_EQ(bmm->calls, 6);

  auto text = testing::run_cli("analyze " + testing::fixture("train_step.json.gz"));
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.output.find("Top kernels by GPU time (top 10 of 32"), std::string::npos);
  EXPECT_NE(text.output.find("Attention_0"), std::string::npos);
  EXPECT_EQ(text.output.find("in order:"), std::string::npos);
  size_t start = 0;
  while (start < text.output.size()) {
    size_t end = text.output.find('\n', start);
    if (end == std::string::npos) end = text.output.size();
    const std::string line = text.output.substr(start, end - start);
    size_t columns = 0;
    for (unsigned char c : line) columns += (c & 0xC0) != 0x80;
    EXPECT_LE(columns, 120u) << line;
    start = end + 1;
  }
  auto listed =
      testing::run_cli("analyze --activities --top 3 " + testing::fixture("train_step.json.gz"));
  EXPECT_NE(listed.output.find("in order:"), std::string::npos);
  EXPECT_NE(listed.output.find("top 3 of 32"), std::string::npos);
  // Two MulFunctor kernels of one short name stay two rows, marked apart.
  auto twelve = testing::run_cli("analyze --top 12 " + testing::fixture("train_step.json.gz"));
  EXPECT_NE(twelve.output.find("[Mu... #1 elementwise          2"), std::string::npos)
      << twelve.output;
  EXPECT_NE(twelve.output.find("[Mu... #2 elementwise          1"), std::string::npos);
  EXPECT_NE(twelve.output.find("different kernels of one short name"), std::string::npos);
}

TEST(TopTables, CsvAndMarkdown) {
  testing::TempFile file("nested.json", kNested);
  auto ops = testing::run_cli("analyze --format csv --table ops " + file.path());
  EXPECT_EQ(ops.exit_code, 0);
  EXPECT_NE(ops.output.find("name,input_shapes,calls,cpu_us,self_cpu_us,gpu_us,self_gpu_us,flops,"
                            "bytes,costed_gpu_us,tflops_per_s,gb_per_s,roof_pct,roof\n"),
            std::string::npos)
      << ops.output;
  // No shapes recorded: no cost, empty fields rather than 0.
  EXPECT_NE(ops.output.find(",ProfilerStep#1,0,1,true,aten::copy_,,2,140,100,7,7,,,0,,,,\n"),
            std::string::npos)
      << ops.output;
  auto modules = testing::run_cli("analyze --format csv --table modules " + file.path());
  EXPECT_NE(modules.output.find(",true,Seq_0,Seq,0,1,500,15,2\n"), std::string::npos)
      << modules.output;
  auto kernels = testing::run_cli("analyze --format csv --table kernels " + file.path());
  EXPECT_NE(kernels.output.find(",true,k2,k2,other,2,12,6,5,7,"), std::string::npos)
      << kernels.output;
  auto md = testing::run_cli("analyze --format md " + file.path());
  EXPECT_NE(md.output.find("| 1 | `aten::copy_` | 2 | 140.0 | 100.0 | 7.0 | 7.0 |"),
            std::string::npos)
      << md.output;
  auto bad = testing::run_cli("analyze --format csv --table nothing " + file.path());
  EXPECT_NE(bad.exit_code, 0);
}

// The report shows each variant's top kernels and ops, folded, below its timeline.
TEST(TopTables, ReportShowsThemFolded) {
  testing::TempFile html("report.html", "");
  auto r = testing::run_cli("report " + std::string(ATTNPROF_SOURCE_DIR) +
                            "/examples/h200-study -o " + html.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(html.path());
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("<details><summary>Top kernels of this region by GPU time (7)</summary>"),
            std::string::npos);
  EXPECT_NE(page.find("<details><summary>Top ops of this region by CPU time"), std::string::npos);
  EXPECT_NE(page.find(">flash_fwd_kernel&lt;...&gt;</td><td>fused attention</td><td>1</td>"),
            std::string::npos);
}

}  // namespace
}  // namespace attnprof
