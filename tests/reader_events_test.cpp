// Each kind of event the reader models, checked against counts and values read by hand from
// the real fixtures (python3 -c 'import json,gzip; ...' over the same files) and small inline
// traces for the cases the fixtures lack.

#include <gtest/gtest.h>

#include <algorithm>
#include <type_traits>

#include "model/trace.h"
#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::TempFile;

Trace read_fixture(const std::string& name) {
  auto t = read_trace(testing::fixture(name), Limits{});
  if (!t.ok()) throw std::runtime_error(t.error().message);
  return std::move(t).value();
}

Trace read_text(const std::string& json) {
  TempFile file("inline.json", json);
  auto t = read_trace(file.path(), Limits{});
  if (!t.ok()) throw std::runtime_error(t.error().message);
  return std::move(t).value();
}

size_t count_host(const Trace& t, HostKind kind) {
  return std::count_if(t.host_events.begin(), t.host_events.end(),
                       [kind](const HostEvent& e) { return e.kind == kind; });
}
size_t count_gpu(const Trace& t, GpuKind kind) {
  return std::count_if(t.gpu_activities.begin(), t.gpu_activities.end(),
                       [kind](const GpuActivity& a) { return a.kind == kind; });
}

TEST(ReaderEvents, CompleteEventsOfEveryCategoryInTheTrainingTrace) {
  Trace t = read_fixture("train_step.json.gz");
  EXPECT_EQ(count_host(t, HostKind::kCpuOp), 594u);
  EXPECT_EQ(count_host(t, HostKind::kUserAnnotation), 12u);
  EXPECT_EQ(count_host(t, HostKind::kRuntime), 69u);
  EXPECT_EQ(count_host(t, HostKind::kDriver), 22u);
  EXPECT_EQ(count_host(t, HostKind::kPythonFunction), 810u);
  EXPECT_EQ(count_gpu(t, GpuKind::kKernel), 76u);
  EXPECT_EQ(count_gpu(t, GpuKind::kMemcpy), 6u);
  EXPECT_EQ(count_gpu(t, GpuKind::kMemset), 6u);
  EXPECT_EQ(count_gpu(t, GpuKind::kUserAnnotation), 6u);
  // Flows: 70 + 70 fwdbwd ends are kept; the 91 + 88 ac2g ends repeat correlation ids and are not.
  EXPECT_EQ(t.flows.size(), 70u + 70u);
  // Two Kineto markers ("Iteration Start", "Record Window End") are instant events.
  EXPECT_EQ(t.instants.size(), 2u);
  // The one "Trace" span is known and skipped, not counted as unknown.
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kUnknownCategory), 0u);
  EXPECT_EQ(t.base_time_ns, 1790857026000000000);
  EXPECT_EQ(t.schema_version, 1);
  EXPECT_TRUE(t.distributed.present);
  EXPECT_EQ(t.distributed.backend, "nccl");
  EXPECT_EQ(t.distributed.world_size, 1);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(t.devices[0].sm_count, 132);
  EXPECT_EQ(t.devices[0].regs_per_sm, 65536);
  EXPECT_EQ(t.devices[0].shared_memory_per_sm, 233472);
  // Two threads issued work: the main thread and the autograd engine's.
  std::vector<int32_t> tids;
  for (const auto& e : t.host_events)
    if (e.kind == HostKind::kCpuOp && std::find(tids.begin(), tids.end(), e.tid) == tids.end())
      tids.push_back(e.tid);
  EXPECT_EQ(tids.size(), 2u);
}

TEST(ReaderEvents, MemoryInstantEventsKeepTheirAllocationFields) {
  Trace t = read_fixture("study_naive.json.gz");
  size_t memory = 0;
  const InstantEvent* first = nullptr;
  for (const auto& e : t.instants)
    if (t.strings.view(e.name) == "[memory]") {
      ++memory;
      if (!first || e.ts_ns < first->ts_ns) first = &e;
    }
  EXPECT_EQ(memory, 36u);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->ts_ns, 5145954784094722);
  EXPECT_EQ(first->bytes, 536870912);
  EXPECT_EQ(first->total_allocated, 624951296);
  EXPECT_EQ(first->device, 0);
}

TEST(ReaderEvents, KernelArgsAreKept) {
  Trace t = read_fixture("study_naive.json.gz");
  auto it =
      std::find_if(t.gpu_activities.begin(), t.gpu_activities.end(), [&](const GpuActivity& a) {
        return t.strings.view(a.name).find("softmax_warp_forward") != std::string_view::npos;
      });
  ASSERT_NE(it, t.gpu_activities.end());
  // {"grid": [32768, 1, 1], "block": [32, 4, 1], "registers per thread": 80, "shared memory": 0,
  //  "est. achieved occupancy %": 38, "stream": 7, "device": 0, "ts": 5145954785539.539}
  EXPECT_EQ(it->grid, (std::array<int32_t, 3>{32768, 1, 1}));
  EXPECT_EQ(it->block, (std::array<int32_t, 3>{32, 4, 1}));
  EXPECT_EQ(it->registers_per_thread, 80);
  EXPECT_EQ(it->kineto_occupancy_pct, 38.0f);
  EXPECT_EQ(it->stream, 7);
  EXPECT_EQ(it->device, 0);
  EXPECT_EQ(it->start_ns, 5145954785539539);
  EXPECT_EQ(it->dur_ns, 736763);
}

TEST(ReaderEvents, OverheadEventsAndStringPidsFromTheCppProfiler) {
  Trace t = read_fixture("cpp_sdpa_cudnn.json.gz");
  EXPECT_EQ(count_host(t, HostKind::kOverhead), 1u);
  EXPECT_EQ(count_host(t, HostKind::kDriver), 3u);
  for (const auto& n : t.thread_names)
    if (n.is_process && t.strings.view(n.name) == "Spans")
      FAIL() << "Spans is a span, not a process";
}

TEST(ReaderEvents, MetadataNamesProcessesAndThreads) {
  Trace t = read_text(R"json({"traceEvents": [
    {"name": "process_name", "ph": "M", "ts": 1, "pid": 7, "tid": 0, "args": {"name": "python3"}},
    {"name": "thread_name", "ph": "M", "ts": 1, "pid": 7, "tid": 9, "args": {"name": "thread 9 (python3)"}},
    {"name": "thread_sort_index", "ph": "M", "ts": 1, "pid": 7, "tid": 9, "args": {"sort_index": 9}}
  ]})json");
  ASSERT_EQ(t.thread_names.size(), 2u);
  EXPECT_TRUE(t.thread_names[0].is_process);
  EXPECT_EQ(t.strings.view(t.thread_names[0].name), "python3");
  EXPECT_EQ(t.thread_names[1].tid, 9);
}

TEST(ReaderEvents, UnknownCategoriesAreCountedNotFatal) {
  Trace t = read_text(R"json({"traceEvents": [
    {"ph": "X", "cat": "gpu_sync", "name": "s", "pid": 0, "tid": 7, "ts": 1, "dur": 1},
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1, "dur": 1}
  ]})json");
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kUnknownCategory), 1u);
  EXPECT_EQ(t.host_events.size(), 1u);
  ASSERT_EQ(t.diagnostics.first().size(), 1u);
  EXPECT_GT(t.diagnostics.first()[0].byte_offset, 0u);
}

TEST(ReaderEvents, AFlowWithoutItsPartnerIsCounted) {
  Trace t = read_text(R"json({"traceEvents": [
    {"ph": "s", "id": 5, "pid": 1, "tid": 1, "ts": 1, "cat": "fwdbwd", "name": "fwdbwd"},
    {"ph": "s", "id": 6, "pid": 1, "tid": 1, "ts": 1, "cat": "fwdbwd", "name": "fwdbwd"},
    {"ph": "f", "id": 6, "pid": 1, "tid": 2, "ts": 3, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"}
  ]})json");
  EXPECT_EQ(t.flows.size(), 3u);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kFlowWithoutPartner), 1u);
}

TEST(ReaderEvents, OpNestingAndLaunchLinks) {
  // An op that launches a kernel through a runtime call, on one thread; a second thread's op.
  Trace t = read_text(R"json({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "outer", "pid": 1, "tid": 1, "ts": 10, "dur": 100},
    {"ph": "X", "cat": "cpu_op", "name": "inner", "pid": 1, "tid": 1, "ts": 20, "dur": 50},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 30, "dur": 5, "args": {"correlation": 77}},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 40, "dur": 10, "args": {"correlation": 77, "device": 0, "stream": 7}},
    {"ph": "X", "cat": "cpu_op", "name": "other thread", "pid": 1, "tid": 2, "ts": 25, "dur": 10}
  ]})json");
  ASSERT_EQ(t.gpu_activities.size(), 1u);
  HostEventId launch = t.activity_launch[0];
  ASSERT_NE(launch, kNoId);
  EXPECT_EQ(t.strings.view(t.host_events[launch].name), "cudaLaunchKernel");
  HostEventId op = t.activity_op[0];
  ASSERT_NE(op, kNoId);
  EXPECT_EQ(t.strings.view(t.host_events[op].name), "inner");
  HostEventId parent = t.host_parent[op];
  ASSERT_NE(parent, kNoId);
  EXPECT_EQ(t.strings.view(t.host_events[parent].name), "outer");
  EXPECT_EQ(t.diagnostics.total(), 0u);
}

// The typed ids of model/trace.h: an id of one table does not index another, is no integer, and
// costs what an int32_t costs.
template <typename Table, typename Index>
concept IndexableBy = requires(const Table& t, Index i) {
  t[i];
};
static_assert(!std::is_convertible_v<HostEventId, GpuActivityId>);
static_assert(!std::is_convertible_v<GpuActivityId, HostEventId>);
static_assert(!std::is_convertible_v<HostEventId, int32_t>);
static_assert(!std::is_convertible_v<int32_t, HostEventId>);
static_assert(IndexableBy<decltype(Trace::host_events), HostEventId>);
static_assert(!IndexableBy<decltype(Trace::host_events), GpuActivityId>);
static_assert(IndexableBy<decltype(Trace::activity_launch), GpuActivityId>);
static_assert(!IndexableBy<decltype(Trace::activity_launch), HostEventId>);
static_assert(!IndexableBy<decltype(Trace::host_parent), GpuActivityId>);
static_assert(sizeof(HostEventId) == sizeof(int32_t));
static_assert(std::is_trivially_copyable_v<HostEventId>);

TEST(TypedIds, NoIdIsNoRowOfEitherTable) {
  EXPECT_EQ(HostEventId(), kNoId);
  EXPECT_EQ(GpuActivityId(), kNoId);
  EXPECT_NE(HostEventId(0), kNoId);
  EXPECT_LT(HostEventId(1), HostEventId(2));
  EXPECT_EQ(HostEventId(7).index(), 7u);
}

}  // namespace
}  // namespace attnprof
