// Each op's recorded arguments (src/analysis/op_arguments.h): an inline trace for the rules
// (escapes, a list of tensors, None, an op without shapes, a trace without any), and the real H200
// recordings, where every cpu_op's arguments are checked against the trace's own JSON read again
// by simdjson's DOM, matched by External id.

#include "analysis/op_arguments.h"

#include <map>
#include <string>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "analysis/attention/attention_rows.h"
#include "io/byte_stream.h"
#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

Trace read_text(const std::string& json, size_t workers = 1) {
  testing::TempFile file("t.json", json);
  auto trace = read_trace(file.path(), Limits{}, {}, workers);
  EXPECT_TRUE(trace.ok()) << trace.error().message;
  return std::move(trace).value();
}

HostEventId op_named(const Trace& t, std::string_view name, size_t nth = 0) {
  for (size_t i = 0; i < t.host_events.size(); ++i)
    if (t.strings.view(t.host_events[HostEventId(i)].name) == name && nth-- == 0)
      return HostEventId(i);
  ADD_FAILURE() << "no op " << name;
  return HostEventId(0);
}

constexpr const char* kOps = R"json({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 10, "dur": 50,
   "args": {"External id": 1, "Input Dims": [[8, 64], [32, 64], [32]],
            "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"],
            "Concrete Inputs": ["", "", ""]}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 10, "dur": 40,
   "args": {"External id": 2, "Input Dims": [[32], [8, 64], [64, 32], [], []],
            "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"],
            "Concrete Inputs": ["", "", "", "1", "1"]}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::cat", "pid": 1, "tid": 2, "ts": 5, "dur": 5,
   "args": {"External id": 3, "Input Dims": [[[2, 3], [2, 3]], []],
            "Input type": ["TensorList", "Scalar"], "Concrete Inputs": ["", "0"]}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::gelu", "pid": 1, "tid": 2, "ts": 20, "dur": 5,
   "args": {"External id": 4, "Input Dims": [ [4, 4] , [ ] ],
            "Input type": ["float", "str"], "Concrete Inputs": ["", "\"t\u0061nh\""]}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 2, "ts": 30, "dur": 5,
   "args": {"External id": 5}},
  {"ph": "X", "cat": "user_annotation", "name": "step", "pid": 1, "tid": 2, "ts": 0, "dur": 90,
   "args": {"Input Dims": [[1]]}}
]})json";

TEST(OpArguments, ReadsEachInputOfEachOp) {
  const Trace t = read_text(kOps);
  // aten::linear and aten::addmm start at the same time on the same thread: told apart by name.
  auto linear = op_arguments(t, op_named(t, "aten::linear"));
  ASSERT_TRUE(linear);
  ASSERT_EQ(linear->size(), 3u);
  EXPECT_EQ((*linear)[0].dims, (std::vector<int64_t>{8, 64}));
  EXPECT_EQ((*linear)[1].dims, (std::vector<int64_t>{32, 64}));
  EXPECT_EQ((*linear)[2].type, "c10::BFloat16");
  auto addmm = op_arguments(t, op_named(t, "aten::addmm"));
  ASSERT_TRUE(addmm);
  ASSERT_EQ(addmm->size(), 5u);
  EXPECT_EQ((*addmm)[2].dims, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ((*addmm)[4].type, "Scalar");
  EXPECT_EQ((*addmm)[4].concrete, "1");
  // A list of tensors has no sizes of its own; the scalar after it is still read.
  auto cat = op_arguments(t, op_named(t, "aten::cat"));
  ASSERT_TRUE(cat);
  ASSERT_EQ(cat->size(), 2u);
  EXPECT_TRUE((*cat)[0].dims.empty());
  EXPECT_EQ((*cat)[1].concrete, "0");
  // Spaces where Kineto writes none, and an escaped value.
  auto gelu = op_arguments(t, op_named(t, "aten::gelu"));
  ASSERT_TRUE(gelu);
  EXPECT_EQ((*gelu)[0].dims, (std::vector<int64_t>{4, 4}));
  EXPECT_EQ((*gelu)[1].concrete, "\"tanh\"");
  // No shapes recorded, and an event that is no op: none, not empty arguments.
  EXPECT_FALSE(op_arguments(t, op_named(t, "aten::empty")));
  EXPECT_FALSE(op_arguments(t, op_named(t, "step")));
  // Four ops recorded inputs, each its own text, whatever the workers.
  size_t with_inputs = 0;
  for (size_t i = 0; i < t.host_events.size(); ++i)
    with_inputs += t.host_events[HostEventId(i)].inputs() != StringPool::kEmpty;
  EXPECT_EQ(with_inputs, 4u);
  EXPECT_EQ(t.op_input_texts.size(), 5u);  // and the empty text
}

// The id lives in three bytes of HostEvent's padding: every id up to 2^24 - 1 comes back whole,
// a larger one is no inputs rather than another op's.
TEST(OpArguments, InputsIdKeepsTwentyFourBits) {
  HostEvent e;
  EXPECT_EQ(e.inputs(), StringPool::kEmpty);
  for (StringId id : {StringId{1}, StringId{0xffff}, StringId{0x10000}, StringId{0x123456},
                      HostEvent::kMaxInputs}) {
    e.set_inputs(id);
    EXPECT_EQ(e.inputs(), id);
  }
  e.set_inputs(HostEvent::kMaxInputs + 1);
  EXPECT_EQ(e.inputs(), StringPool::kEmpty);
}

TEST(OpArguments, NoneOnATraceRecordedWithoutShapes) {
  auto trace = read_trace(testing::fixture("foreign/hta_cuda_sync.json.gz"), Limits{});
  ASSERT_TRUE(trace.ok());
  size_t ops = 0;
  for (size_t i = 0; i < trace->host_events.size(); ++i) {
    if (trace->host_events[HostEventId(i)].kind != HostKind::kCpuOp) continue;
    ++ops;
    EXPECT_FALSE(op_arguments(*trace, HostEventId(i)));
  }
  EXPECT_GT(ops, 0u);
}

// An attention op's query rows and keys (analysis/attention/attention_rows.h): a product's M and N,
// SDPA's L and S; none for another op or inputs of fewer than two sizes or a size of 0.
TEST(OpArguments, AttentionRowsOfProductsAndSdpa) {
  auto args = [](std::vector<int64_t> a, std::vector<int64_t> b) {
    return std::vector<OpArgument>{{std::move(a), "c10::BFloat16", ""},
                                   {std::move(b), "c10::BFloat16", ""}};
  };
  auto rows = attention_rows("aten::matmul", args({8, 32, 1, 128}, {8, 32, 128, 16384}));
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->query_rows, 1);
  EXPECT_EQ(rows->keys, 16384);
  rows = attention_rows("aten::_scaled_dot_product_flash_attention",
                        args({2, 16, 512, 64}, {2, 16, 2048, 64}));
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->query_rows, 512);
  EXPECT_EQ(rows->keys, 2048);
  EXPECT_FALSE(attention_rows("aten::addmm", args({8, 64}, {64, 32})));
  EXPECT_FALSE(attention_rows("aten::bmm", args({64}, {64, 32})));
  EXPECT_FALSE(attention_rows("aten::bmm", args({0, 8, 64}, {0, 64, 32})));
  EXPECT_FALSE(attention_rows("aten::bmm", {{{8, 64}, "float", ""}}));
}

// A decode step of naive attention (examples/h200-study/decode), read from its recorded inputs:
// per call, aten::matmul and its aten::bmm for Q·K^T (1 x 16384) and P·V (1 x 128), 6 calls.
TEST(OpArguments, AttentionRowsOfADecodeStep) {
  auto trace = read_trace(
      std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/decode/traces/naive.json.gz",
      Limits{});
  ASSERT_TRUE(trace.ok());
  size_t products = 0, scores = 0;
  for (size_t i = 0; i < trace->host_events.size(); ++i) {
    const auto rows = attention_rows(*trace, HostEventId(i));
    if (!rows) continue;
    ++products;
    EXPECT_EQ(rows->query_rows, 1);
    scores += rows->keys == 16384;
  }
  EXPECT_EQ(products, 24u);
  EXPECT_EQ(scores, 12u);
}

// The fixture's JSON, decompressed, read by simdjson's DOM: each cpu_op's three fields by its
// External id.
struct Recorded {
  std::vector<std::vector<int64_t>> dims;
  std::vector<std::string> types, values;
};
std::map<int64_t, Recorded> recorded_by_external_id(const std::string& path) {
  std::map<int64_t, Recorded> out;
  auto stream = ByteStream::open(path, Limits{});
  EXPECT_TRUE(stream.ok());
  std::string text;
  std::vector<char> buffer(1 << 20);
  for (;;) {
    auto n = (*stream)->read(buffer.data(), buffer.size());
    EXPECT_TRUE(n.ok());
    if (!n.ok() || *n == 0) break;
    text.append(buffer.data(), *n);
  }
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(text);
  for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
    std::string_view cat;
    if (e["cat"].get(cat) || cat != "cpu_op") continue;
    simdjson::dom::object args;
    int64_t id;
    if (e["args"].get(args) || args["External id"].get(id)) continue;
    simdjson::dom::array dims;
    if (args["Input Dims"].get(dims)) continue;
    Recorded r;
    for (simdjson::dom::element input : dims) {
      std::vector<int64_t> sizes;
      simdjson::dom::array list;
      if (!input.get(list))
        for (simdjson::dom::element size : list) {
          int64_t n;
          if (size.get(n)) {
            sizes.clear();
            break;
          }
          sizes.push_back(n);
        }
      r.dims.push_back(sizes);
    }
    for (const char* key : {"Input type", "Concrete Inputs"}) {
      simdjson::dom::array list;
      if (args[key].get(list)) continue;
      for (simdjson::dom::element s : list) {
        std::string_view v;
        (std::string_view(key) == "Input type" ? r.types : r.values)
            .emplace_back(s.get(v) ? "" : std::string(v));
      }
    }
    out[id] = std::move(r);
  }
  return out;
}

TEST(OpArguments, EveryOpOfTheRealTracesAsItsJsonSays) {
  for (const char* name : {"train_step.json.gz", "models/llama-train-sdpa.json.gz",
                           "models/mistral-decode-sdpa.json.gz", "study_sdpa-math.json.gz"}) {
    SCOPED_TRACE(name);
    const std::map<int64_t, Recorded> recorded = recorded_by_external_id(testing::fixture(name));
    auto trace = read_trace(testing::fixture(name), Limits{}, {}, 3);
    ASSERT_TRUE(trace.ok());
    size_t checked = 0;
    for (size_t i = 0; i < trace->host_events.size(); ++i) {
      const HostEvent& e = trace->host_events[HostEventId(i)];
      if (e.kind != HostKind::kCpuOp) continue;
      auto it = recorded.find(e.external_id);
      auto args = op_arguments(*trace, HostEventId(i));
      if (it == recorded.end()) {
        EXPECT_FALSE(args) << e.external_id;
        continue;
      }
      ASSERT_TRUE(args) << e.external_id;
      const Recorded& r = it->second;
      ASSERT_EQ(args->size(), r.dims.size()) << e.external_id;
      for (size_t a = 0; a < args->size(); ++a) {
        EXPECT_EQ((*args)[a].dims, r.dims[a]);
        EXPECT_EQ((*args)[a].type, a < r.types.size() ? r.types[a] : "");
        EXPECT_EQ((*args)[a].concrete, a < r.values.size() ? r.values[a] : "");
      }
      ++checked;
    }
    EXPECT_EQ(checked, recorded.size());
    EXPECT_GT(checked, 100u);
  }
}

}  // namespace
}  // namespace attnprof
