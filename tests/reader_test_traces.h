#pragma once
// What the reader tests compare with: every field of two Traces, and a trace text made to trip
// the reader (quick cuts, events larger than a chunk, every kind of diagnostic).

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <tuple>

#include "attnprof/limits.h"
#include "model/trace.h"

namespace attnprof::testing {

// Every field of every table, the strings behind the ids, the links and the diagnostics.
inline void expect_same(const Trace& a, const Trace& b) {
  ASSERT_EQ(a.strings.size(), b.strings.size());
  for (StringId i = 0; i < a.strings.size(); ++i)
    ASSERT_EQ(a.strings.view(i), b.strings.view(i)) << i;
  ASSERT_EQ(a.host_events.size(), b.host_events.size());
  for (size_t i = 0; i < a.host_events.size(); ++i) {
    const HostEvent &x = a.host_events[i], &y = b.host_events[i];
    ASSERT_TRUE(x.start_ns == y.start_ns && x.dur_ns == y.dur_ns &&
                x.external_id == y.external_id && x.correlation == y.correlation &&
                x.pid == y.pid && x.tid == y.tid && x.name == y.name && x.kind == y.kind &&
                x.inputs() == y.inputs())
        << "host event " << i;
  }
  ASSERT_EQ(a.gpu_activities.size(), b.gpu_activities.size());
  for (size_t i = 0; i < a.gpu_activities.size(); ++i) {
    const GpuActivity &x = a.gpu_activities[i], &y = b.gpu_activities[i];
    ASSERT_TRUE(
        x.start_ns == y.start_ns && x.dur_ns == y.dur_ns && x.correlation == y.correlation &&
        x.external_id == y.external_id && x.bytes == y.bytes && x.name == y.name &&
        x.kind == y.kind && x.device == y.device && x.stream == y.stream && x.grid == y.grid &&
        x.block == y.block && x.registers_per_thread == y.registers_per_thread &&
        x.shared_memory == y.shared_memory && x.kineto_occupancy_pct == y.kineto_occupancy_pct)
        << "GPU activity " << i;
  }
  ASSERT_EQ(a.instants.size(), b.instants.size());
  for (size_t i = 0; i < a.instants.size(); ++i) {
    const InstantEvent &x = a.instants[i], &y = b.instants[i];
    ASSERT_TRUE(x.ts_ns == y.ts_ns && x.pid == y.pid && x.tid == y.tid && x.name == y.name &&
                x.bytes == y.bytes && x.total_allocated == y.total_allocated &&
                x.device == y.device)
        << "instant " << i;
  }
  ASSERT_EQ(a.flows.size(), b.flows.size());
  for (size_t i = 0; i < a.flows.size(); ++i) {
    const FlowEvent &x = a.flows[i], &y = b.flows[i];
    ASSERT_TRUE(x.id == y.id && x.ts_ns == y.ts_ns && x.pid == y.pid && x.tid == y.tid &&
                x.category == y.category && x.phase == y.phase)
        << "flow " << i;
  }
  // Each op's recorded inputs (HostEvent::inputs, above): the same texts under the same ids.
  ASSERT_EQ(a.op_input_texts.size(), b.op_input_texts.size());
  for (size_t i = 0; i < a.op_input_texts.size(); ++i)
    ASSERT_EQ(a.op_input_texts.view(static_cast<StringId>(i)),
              b.op_input_texts.view(static_cast<StringId>(i)))
        << "op input text " << i;
  ASSERT_EQ(a.thread_names.size(), b.thread_names.size());
  for (size_t i = 0; i < a.thread_names.size(); ++i) {
    const ThreadName &x = a.thread_names[i], &y = b.thread_names[i];
    ASSERT_TRUE(x.pid == y.pid && x.tid == y.tid && x.name == y.name &&
                x.is_process == y.is_process)
        << "thread name " << i;
  }
  EXPECT_EQ(a.host_parent, b.host_parent);
  EXPECT_EQ(a.activity_launch, b.activity_launch);
  EXPECT_EQ(a.activity_op, b.activity_op);
  EXPECT_EQ(a.events_read, b.events_read);
  EXPECT_EQ(a.json_bytes, b.json_bytes);
  EXPECT_EQ(a.devices.size(), b.devices.size());
  EXPECT_EQ(a.trace_name, b.trace_name);
  for (size_t k = 0; k < static_cast<size_t>(DiagnosticKind::kCount); ++k)
    EXPECT_EQ(a.diagnostics.count(static_cast<DiagnosticKind>(k)),
              b.diagnostics.count(static_cast<DiagnosticKind>(k)));
  ASSERT_EQ(a.diagnostics.first().size(), b.diagnostics.first().size());
  for (size_t i = 0; i < a.diagnostics.first().size(); ++i) {
    const Diagnostic &x = a.diagnostics.first()[i], &y = b.diagnostics.first()[i];
    EXPECT_TRUE(x.kind == y.kind && x.byte_offset == y.byte_offset && x.detail == y.detail)
        << "diagnostic " << i << ": " << x.detail << " / " << y.detail;
  }
}

// awkward_trace's names run past a 1 MiB batch, over the default --max-string-bytes: read it
// with these.
inline Limits awkward_trace_limits() {
  Limits limits;
  limits.max_string_bytes = uint64_t{16} << 20;
  return limits;
}

// About `bytes` of trace text mixing every kind of event and every oddity the reader handles.
inline std::string awkward_trace(size_t bytes, unsigned seed) {
  std::mt19937 random(seed);
  auto pick = [&](int n) { return static_cast<int>(random() % n); };
  std::string json =
      "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"GPU\", "
      "\"numSms\": 132}], \"traceEvents\": [\n";
  int64_t ts = 1000000;
  int correlation = 1;
  bool first = true;
  auto add = [&](const std::string& event) {
    if (!first) json += pick(2) ? ",\n  " : ",";
    first = false;
    json += event;
  };
  auto name = [&](int i) {
    std::string n = "op" + std::to_string(i % 97);
    switch (pick(9)) {
      case 0:
        n += "}, {\\\"ph\\\": \\\"X\\\"}, {";
        break;  // a quick cut falls in here
      case 1:
        n += "},{";
        break;
      case 2:
        n += "\\\\";
        break;
      case 3:
        n += "\\u00e9";
        break;
      default:
        break;
    }
    return n;
  };
  auto time = [&](int64_t ns) {
    return std::to_string(ns / 1000) + "." + std::to_string(1000 + ns % 1000).substr(1);
  };
  for (int i = 0; json.size() < bytes; ++i) {
    ts += 1 + pick(5000);
    std::string pid = pick(50) == 0 ? "\"Spans\"" : (pick(40) == 0 ? "-3" : "100");
    std::string tid = pick(30) == 0 ? "\"Traces\"" : std::to_string(100 + pick(4));
    switch (pick(12)) {
      case 0:
      case 1:
      case 2: {
        int64_t dur = pick(100) == 0 ? int64_t{5000000000000} : 100 + pick(100000);  // wide
        int64_t ext = pick(100) == 0 ? int64_t{1} << 40 : i;                         // wide
        add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name(i) + "\", \"pid\": " + pid +
            ", \"tid\": " + tid + ", \"ts\": " + time(ts) + ", \"dur\": " + time(dur) +
            ", \"args\": {\"External id\": " + std::to_string(ext) +
            ", \"Input Dims\": [[8, 1024], [], [3]], \"Concrete Inputs\": [\"\", \"}, {\"]}}");
        break;
      }
      case 3:
        add("{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"" + name(i) +
            "\", \"pid\": " + pid + ", \"tid\": " + tid + ", \"ts\": " + time(ts) + ", \"dur\": " +
            time(10 + pick(9000)) + ", \"args\": {\"Python id\": " + std::to_string(i) + "}}");
        break;
      case 4: {
        int c = correlation++;
        add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": "
            "100, "
            "\"tid\": 101, \"ts\": " +
            time(ts) + ", \"dur\": 4.5, \"args\": {\"External id\": " + std::to_string(i) +
            ", \"correlation\": " + std::to_string(c) + "}}");
        add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"kernel_" + std::to_string(c % 13) +
            "\", \"pid\": 0, \"tid\": 7, \"ts\": " + time(ts + 9000) +
            ", \"dur\": 3.25, "
            "\"args\": {\"External id\": " +
            std::to_string(i) + ", \"correlation\": " + std::to_string(c) +
            ", \"device\": 0, \"stream\": 7, \"grid\": [" + std::to_string(1 + pick(9)) +
            ", 1, 1], \"block\": [128, 1, 1], "
            "\"registers per thread\": 32, \"shared memory\": 0, \"est. achieved occupancy %\": "
            "50}}");
        break;
      }
      case 5:
        add("{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
            "\"pid\": " +
            pid + ", \"tid\": " + tid + ", \"ts\": " + time(ts) +
            ", \"args\": {\"Total Reserved\": 0, \"Total Allocated\": " + std::to_string(i) +
            ", \"Bytes\": " + std::to_string(512 - pick(1024)) + ", \"Device Id\": 0}}");
        break;
      case 6:
        add("{\"ph\": \"" + std::string(pick(2) ? "s" : "f") +
            "\", \"id\": " + std::to_string(i / 2) + ", \"pid\": " + pid + ", \"tid\": " + tid +
            ", \"ts\": " + time(ts) + ", \"cat\": \"fwdbwd\", \"name\": \"fwdbwd\"}");
        break;
      case 7:
        add("{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": " + pid +
            ", \"tid\": " + tid + ", \"args\": {\"name\": \"thread " + std::to_string(i) + "\"}}");
        break;
      case 8:  // diagnostics of several kinds, in every batch
        switch (pick(5)) {
          case 0:
            add("{\"ph\": \"X\", \"cat\": \"mystery\", \"name\": \"m" + std::to_string(i) +
                "\", \"ts\": 1, \"dur\": 1}");
            break;
          case 1:
            add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"neg" + std::to_string(i) +
                "\", \"ts\": 5, \"dur\": -1}");
            break;
          case 2:
            add("{\"ph\": \"Q\", \"name\": \"q\"}");
            break;
          case 3:
            add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"ts\": 5, \"dur\": 1}");
            break;
          default:
            add("[1, 2]");
            break;
        }
        break;
      case 9:
        if (pick(400) == 0) {  // larger than a chunk
          add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" +
              std::string((1 << 20) + pick(1000), 'k') +
              "\", \"pid\": 100, \"tid\": 100, \"ts\": " + time(ts) + ", \"dur\": 1}");
          break;
        }
        [[fallthrough]];
      default:
        add("{\n    \"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#" +
            std::to_string(i % 5) + "\", \"pid\": 100, \"tid\": 100,\n    \"ts\": " + time(ts) +
            ", \"dur\": " + time(100000) + "\n  }");
    }
  }
  json += "\n], \"traceName\": \"awkward\"}";
  return json;
}

}  // namespace attnprof::testing
