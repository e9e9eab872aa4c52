// How `attnprof bench --counters` reads what went wrong from ncu's log (counters.h), and the
// child's command line; no GPU needed.

#include <gtest/gtest.h>

#include "counters.h"

namespace attnprof::bench {
namespace {

TEST(NcuLog, PermissionIsTheMachines) {
  const NcuFailure f = explain_ncu_log(
      "==PROF== Connected to process 12\n==ERROR== ERR_NVGPUCTRPERM - The user does not have "
      "permission to access NVIDIA GPU Performance Counters on the target device 0.\n",
      1);
  EXPECT_TRUE(f.machine);
  EXPECT_NE(f.reason.find("not permitted for this user (ERR_NVGPUCTRPERM)"), std::string::npos);
}

TEST(NcuLog, UnsupportedDeviceIsTheMachines) {
  const NcuFailure f =
      explain_ncu_log("==ERROR== The selected device (Tesla K80) is not supported.\n", 1);
  EXPECT_TRUE(f.machine);
  EXPECT_EQ(f.reason, "ncu: The selected device (Tesla K80) is not supported.");
}

TEST(NcuLog, AVariantThatCannotRunIsItsOwn) {
  const NcuFailure f = explain_ncu_log(
      "==PROF== Connected to process 12\nattnprof bench: No available kernel. Aborting execution.\n"
      "==PROF== Disconnected from process 12\n",
      1);
  EXPECT_FALSE(f.machine);
  EXPECT_NE(f.reason.find("exited with 1"), std::string::npos);
  EXPECT_NE(f.reason.find("Disconnected"), std::string::npos);
}

TEST(NcuLog, NoKernelProfiled) {
  const NcuFailure f = explain_ncu_log("==WARNING== No kernels were profiled.\n", 0);
  EXPECT_FALSE(f.machine);
  EXPECT_EQ(f.reason, "ncu profiled no kernel in the call's range");
  EXPECT_TRUE(explain_ncu_log("==PROF== Disconnected from process 12\n", 0).reason.empty());
}

TEST(CounterChild, ArgumentsCarryTheProblem) {
  Problem p;
  p.seq = 4096;
  p.kv_heads = 4;
  p.q_seq = 1;
  p.window = 512;
  p.dtype = Dtype::kFp16;
  p.mask = MaskKind::kExplicit;
  p.backward = true;
  const auto args = child_arguments({"sdpa-flash", p, 42});
  const std::string joined = [&] {
    std::string s;
    for (const auto& a : args) s += a + " ";
    return s;
  }();
  EXPECT_EQ(joined,
            "bench --counters-child sdpa-flash --batch 4 --heads 16 --seq 4096 --head-dim 64 "
            "--kv-heads 4 --q-seq 1 --window 512 --dtype fp16 --mask explicit --seed 42 --quiet "
            "--backward ");
}

}  // namespace
}  // namespace attnprof::bench
