// `attnprof annotate` (docs/json-schema.md): the copy keeps every original event, adds attnprof's
// findings, the typical region and the hidden copies' links, and attnprof reads it back with its
// markers.

#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include <simdjson.h>

#include "test_support.h"
#include "trace_set.h"

namespace attnprof {
namespace {

using testing::fixture;
using testing::run_cli;
using testing::run_command;
using testing::TraceSet;

simdjson::dom::element parse(simdjson::dom::parser& parser, const std::string& json) {
  return parser.parse(simdjson::padded_string(json));
}

std::string analyze_json(const std::string& path) {
  auto r = run_cli("analyze --explain --format json --region forward " + path);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return r.output;
}

TEST(Annotate, TheCopyReadsBackWithItsMarkersAndTheSameAnalysis) {
  TraceSet set;
  const std::string original = fixture("study_naive.json.gz");
  const std::string annotated = set.path("naive.annotated.json.gz");
  auto r = run_cli("annotate --region forward " + original + " -o " + annotated);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("hidden copies linked to their op"), std::string::npos) << r.output;

  simdjson::dom::parser pa, pb;
  const std::string before_text = analyze_json(original), after_text = analyze_json(annotated);
  simdjson::dom::element before = parse(pa, before_text)["traces"].at(0);
  simdjson::dom::element after = parse(pb, after_text)["traces"].at(0);
  // The analysis is the same: regions, their numbers, findings; no warning for the new events.
  EXPECT_EQ(simdjson::to_string(before["regions"]), simdjson::to_string(after["regions"]));
  EXPECT_EQ(simdjson::to_string(before["findings"]), simdjson::to_string(after["findings"]));
  EXPECT_EQ(int64_t(after["warnings"]["total"]), int64_t(before["warnings"]["total"]));
  EXPECT_EQ(simdjson::dom::array(before["markers"]).size(), 0u);

  // The markers: one per finding, the typical region, one per hidden copy (one per forward).
  const size_t findings = simdjson::dom::array(before["findings"]).size();
  const size_t regions = simdjson::dom::array(before["regions"]).size();
  std::map<std::string, int> names;
  for (simdjson::dom::element m : simdjson::dom::array(after["markers"]))
    ++names[std::string(std::string_view(m["name"]))];
  EXPECT_EQ(names["typical region"], 1);
  EXPECT_EQ(names["hidden-copy"], 1);
  EXPECT_EQ(names["not-fused"], 1);
  EXPECT_EQ(names["hidden copy"], int(regions));
  EXPECT_EQ(simdjson::dom::array(after["markers"]).size(), findings + 1 + regions);
  // Every original event is still there; only attnprof's were added.
  const uint64_t added = findings + 1 /*instant*/ + 2 /*slice, track name*/ + 3 * regions;
  EXPECT_EQ(uint64_t(after["events"]), uint64_t(before["events"]) + added);

  // Read back as text too.
  auto text = run_cli("analyze --region forward " + annotated);
  EXPECT_NE(text.output.find("annotated by attnprof: " + std::to_string(findings + 1 + regions) +
                             " markers"),
            std::string::npos)
      << text.output;
}

TEST(Annotate, EachHiddenCopyIsLinkedFromItsOpToTheCopy) {
  TraceSet set;
  const std::string annotated = set.path("naive.json");
  ASSERT_EQ(
      run_cli("annotate --region forward " + fixture("study_naive.json.gz") + " -o " + annotated)
          .exit_code,
      0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.load(annotated);
  // Where the original has its DtoD copies and masked_fill ops (trace clock, microseconds).
  std::set<double> copies, masked_fills;
  std::map<int64_t, double> starts, finishes;
  int slices = 0;
  for (simdjson::dom::element e : simdjson::dom::array(doc["traceEvents"])) {
    std::string_view cat, ph;
    if (e["cat"].get(cat) != simdjson::SUCCESS) continue;
    ph = e["ph"];
    if (cat == "gpu_memcpy") copies.insert(double(e["ts"]));
    if (cat == "cpu_op" && std::string_view(e["name"]) == "aten::masked_fill")
      masked_fills.insert(double(e["ts"]));
    if (cat != "attnprof") continue;
    if (ph == "s") starts[int64_t(e["id"])] = double(e["ts"]);
    if (ph == "f") {
      finishes[int64_t(e["id"])] = double(e["ts"]);
      EXPECT_EQ(std::string_view(e["bp"]), "e");
    }
    if (ph == "X") {
      ++slices;
      EXPECT_EQ(std::string_view(e["name"]).rfind("typical region: forward #", 0), 0u);
    }
  }
  EXPECT_EQ(slices, 1);
  ASSERT_FALSE(starts.empty());
  ASSERT_EQ(starts.size(), finishes.size());
  for (const auto& [id, ts] : starts) {
    EXPECT_TRUE(masked_fills.count(ts)) << "a flow starts on its masked_fill: " << ts;
    ASSERT_TRUE(finishes.count(id));
    EXPECT_TRUE(copies.count(finishes[id])) << "and ends on its copy: " << finishes[id];
  }
}

TEST(Annotate, RefusesAnAnnotatedTraceItselfAndUnwritableOutputs) {
  TraceSet set;
  const std::string once = set.path("once.json.gz");
  ASSERT_EQ(run_cli("annotate " + fixture("study_naive.json.gz") + " -o " + once).exit_code, 0);
  auto twice = run_cli("annotate " + once + " -o " + set.path("twice.json.gz"));
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.output.find("annotated by attnprof already"), std::string::npos) << twice.output;

  auto itself = run_cli("annotate " + once + " -o " + once);
  EXPECT_EQ(itself.exit_code, 2);
  EXPECT_NE(itself.output.find(once + " over an input of the command"), std::string::npos)
      << itself.output;

  auto nowhere = run_cli("annotate " + fixture("study_naive.json.gz") + " -o " +
                         set.path("no/such/folder/out.json"));
  EXPECT_EQ(nowhere.exit_code, 2);
  EXPECT_NE(nowhere.output.find("(its folder does not exist)"), std::string::npos)
      << nowhere.output;

  const std::string not_trace = set.write("not_trace.json", "{\"schemaVersion\": 1}");
  auto bad = run_cli("annotate " + not_trace + " -o " + set.path("out.json"));
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_FALSE(std::filesystem::exists(set.path("out.json")));
}

// A trace with no region and no finding still gets a valid copy: the events go between `[` and
// the first element, with a comma only when the array had elements.
TEST(Annotate, AnEmptyEventListStaysValidJson) {
  TraceSet set;
  const std::string empty = set.write("empty.json", "{\"schemaVersion\": 1, \"traceEvents\": [ ]}");
  auto r = run_cli("annotate " + empty + " -o " + set.path("out.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.load(set.path("out.json")).get(doc), simdjson::SUCCESS)
      << run_command("cat " + set.path("out.json")).output;
}

// PyTorch 1.8 wrote a bare array of events, which analyze reads: annotate once refused it ("not a
// JSON object"); the markers now go first in that array, and read back.
TEST(Annotate, ABareArrayOfEventsIsAnnotatedToo) {
  TraceSet set;
  const std::string annotated = set.path("pytorch_1_8.annotated.json");
  auto r = run_cli("annotate " + fixture("odd/pytorch_1_8.json") + " -o " + annotated);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto back = run_cli("analyze " + annotated);
  EXPECT_EQ(back.exit_code, 0) << back.output;
  EXPECT_NE(back.output.find("annotated by attnprof: "), std::string::npos) << back.output;
  EXPECT_EQ(run_command("head -c 1 " + annotated).output, "[");
}

}  // namespace
}  // namespace attnprof
