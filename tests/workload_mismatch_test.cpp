// What makes two sides of a diff not like for like (analysis/workload_mismatch.h), on real H200
// recordings with record_shapes=True (tests/data/op_families/gemm.json.gz: one region per case,
// each with its dtype in op_families.json): the GEMMs' element types are named when they differ,
// and nothing is said when the sides' GEMMs agree.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/workload_mismatch.h"
#include "study/analysis/run_workload_mismatch.h"
#include "test_support.h"

namespace attnprof {
namespace {

const std::string kGemms = "op_families/gemm.json.gz";

const OpTotal* op_named(const TraceAnalysis& t, const std::string& name) {
  for (const OpTotal& op : t.regions.at(t.typical_region).tables.ops)
    if (op.name == name) return &op;
  return nullptr;
}

TEST(WorkloadMismatch, GemmRowsCarryTheirOperandsType) {
  const TraceAnalysis mm = testing::analyze_fixture(kGemms, "case: mm");
  const OpTotal* op = op_named(mm, "aten::mm");
  ASSERT_NE(op, nullptr);
  EXPECT_TRUE(op->gemm);
  EXPECT_EQ(op->dtype, "bf16");
  const TraceAnalysis fp8 = testing::analyze_fixture(kGemms, "case: scaled_mm_fp8");
  op = op_named(fp8, "aten::_scaled_mm");
  ASSERT_NE(op, nullptr);
  EXPECT_TRUE(op->gemm);
  EXPECT_EQ(op->dtype, "fp8_e4m3fn");
  // A memory-bound op has a cost and a type, but is no GEMM.
  const TraceAnalysis add = testing::analyze_fixture("op_families/memory.json.gz", "case: add");
  op = op_named(add, "aten::add");
  ASSERT_NE(op, nullptr);
  EXPECT_FALSE(op->gemm);
  EXPECT_EQ(op->dtype, "bf16");
}

TEST(WorkloadMismatch, DiffersWhenTheSidesGemmsRanInOtherTypes) {
  const TraceAnalysis mm = testing::analyze_fixture(kGemms, "case: mm");
  const TraceAnalysis fp8 = testing::analyze_fixture(kGemms, "case: scaled_mm_fp8");
  EXPECT_EQ(workload_mismatches(mm, fp8),
            (std::vector<std::string>{"GEMM dtype: bf16 vs fp8_e4m3fn"}));
  EXPECT_EQ(workload_mismatches(fp8, mm),
            (std::vector<std::string>{"GEMM dtype: fp8_e4m3fn vs bf16"}));
}

TEST(WorkloadMismatch, SaysNothingWhenTheGemmsAgree) {
  // bf16 products of other shapes: the same precision, like for like as far as types go.
  const TraceAnalysis mm = testing::analyze_fixture(kGemms, "case: mm");
  const TraceAnalysis bmm = testing::analyze_fixture(kGemms, "case: bmm");
  EXPECT_TRUE(workload_mismatches(mm, bmm).empty());
  // A trace recorded without shapes has no GEMM type: not compared.
  const TraceAnalysis study = testing::analyze_fixture("study_naive.json.gz", "forward");
  for (const std::string& line : workload_mismatches(mm, study))
    EXPECT_EQ(line.find("GEMM"), std::string::npos) << line;
}

}  // namespace
}  // namespace attnprof
