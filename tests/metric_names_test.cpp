// docs/METRICS.md against the code: its generated tables are what the catalogs write
// (render/metrics_doc.h), and every name that analyze's JSON and CSV and check's JSON print is a
// row of the doc, so that a command cannot speak a name the doc does not list.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "analysis/findings/finding_catalog.h"
#include "analysis/regions/region_metrics.h"
#include "render/metrics_doc.h"
#include "test_support.h"

namespace attnprof {
namespace {

std::string read_doc() {
  std::ifstream in(std::string(ATTNPROF_SOURCE_DIR) + "/docs/METRICS.md");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The names of the doc's tables: the first cell of each row, `a`, `b` split.
std::set<std::string> documented_names(const std::string& doc) {
  std::set<std::string> names;
  std::istringstream lines(doc);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("| `")) continue;
    const std::string cell = line.substr(2, line.find(" |", 2) - 2);
    for (size_t at = cell.find('`'); at != std::string::npos;) {
      const size_t end = cell.find('`', at + 1);
      if (end == std::string::npos) break;
      names.insert(cell.substr(at + 1, end - at - 1));
      at = cell.find('`', end + 1);
    }
  }
  return names;
}

// A name is documented as itself or as its family ("kernels.gemm" as "kernels.CLASS").
bool documented(const std::set<std::string>& names, const std::string& name) {
  if (names.count(name)) return true;
  const size_t dot = name.find('.');
  return dot != std::string::npos && names.count(name.substr(0, dot) + ".CLASS");
}

TEST(MetricNames, TheDocsGeneratedTablesAreTheCatalogs) {
  const std::string doc = read_doc();
  const Result<std::string> written = with_generated_sections(doc);
  ASSERT_TRUE(written.ok()) << "docs/METRICS.md: " << written.error().message;
  EXPECT_EQ(*written, doc) << "docs/METRICS.md's generated tables differ from the catalogs: run "
                              "scripts/generate-metrics-doc.sh";
}

// The generator rewrites a table that lags its catalog, and names a marker the doc lost.
TEST(MetricNames, AStaleTableIsRewrittenAndALostMarkerNamed) {
  const std::string doc = read_doc();
  std::string stale = doc;
  const size_t row = stale.find("| `hidden-copy` |");
  ASSERT_NE(row, std::string::npos);
  stale.erase(row, stale.find('\n', row) + 1 - row);
  const Result<std::string> written = with_generated_sections(stale);
  const Result<std::string> fresh = with_generated_sections(doc);
  ASSERT_TRUE(written.ok() && fresh.ok());
  EXPECT_NE(stale, *fresh);
  EXPECT_EQ(*written, *fresh);
  std::string lost = doc;
  const std::string end = "<!-- end of findings -->";
  lost.erase(lost.find(end), end.size());
  const Result<std::string> failed = with_generated_sections(lost);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().message, "the doc lacks the marker \"" + end + "\"");
}

TEST(MetricNames, TheFindingCatalogIsWhole) {
  // Ids are unique; each finding that explains time by kernel classes names some; a trace's
  // finding has its rule, and one that explains time has its words in the report's headline.
  std::set<std::string_view> ids;
  for (const FindingDescription& f : finding_catalog()) {
    EXPECT_TRUE(ids.insert(f.id).second) << f.id;
    if (f.kind) {
      EXPECT_EQ(finding_id(*f.kind), f.id);
      EXPECT_NE(f.rule, nullptr) << f.id;
      if (f.explains != ExplainedTime::kNone) {
        EXPECT_FALSE(f.headline.empty()) << f.id;
      }
    } else {
      EXPECT_EQ(f.rule, nullptr) << f.id;  // the study's findings are made from its run
    }
    EXPECT_EQ(find_finding(f.id), &f);
    EXPECT_EQ(f.explains == ExplainedTime::kKernelClasses, f.classes != 0) << f.id;
  }
}

TEST(MetricNames, EveryCheckMetricIsDocumentedOnce) {
  const std::set<std::string> names = documented_names(read_doc());
  std::set<std::string> seen;
  for (const auto& info : metric_catalog()) {
    EXPECT_TRUE(documented(names, info.name)) << info.name;
    EXPECT_TRUE(seen.insert(info.name).second) << "two metrics named " << info.name;
    EXPECT_FALSE(renamed_metric_note(info.name)) << info.name;
  }
  // The old spellings are listed with their current names.
  for (std::string old :
       {"gpu_time_ms", "wall_ms", "cpu_ms", "span_ms", "idle_ms", "compute_ms", "communication_ms",
        "memory_ms", "main_kernel_ms", "registers", "shared_memory_kb", "gpu_time_ms.CLASS"}) {
    EXPECT_TRUE(names.count(old)) << old << " is not in the doc's table of renamed metrics";
    const std::string probe = old == "gpu_time_ms.CLASS" ? "gpu_time_ms.gemm" : old;
    EXPECT_TRUE(renamed_metric_note(probe)) << old;
    EXPECT_NE(find_metric(probe), nullptr) << old;
  }
}

// What a command prints on stdout alone (its notes on stderr are not its output).
testing::CommandResult stdout_of(const std::string& arguments) {
  // Appended, not "(" + string, on which g++ 12 warns (-Wrestrict, falsely).
  std::string line = "(";
  line += ATTNPROF_CLI;
  line += " " + arguments + " 2>/dev/null)";
  return testing::run_command(line);
}

void expect_keys_documented(const std::set<std::string>& names, simdjson::dom::object object,
                            const std::string& where) {
  for (auto field : object) {
    const std::string key(field.key);
    EXPECT_TRUE(documented(names, key)) << where << "." << key << " is not in docs/METRICS.md";
  }
}

TEST(MetricNames, EveryNameTheCommandsPrintIsDocumented) {
  const std::set<std::string> names = documented_names(read_doc());
  simdjson::dom::parser parser;

  auto check = stdout_of("check --region forward --format json " +
                         testing::fixture("study_naive.json.gz") + " --expect 'kernels == 5'");
  simdjson::dom::element c = parser.parse(check.output);
  expect_keys_documented(names, c["metrics"].get_object(), "check.metrics");

  auto analyze = stdout_of("analyze --region forward --format json " +
                           testing::fixture("study_naive.json.gz"));
  simdjson::dom::element a = parser.parse(analyze.output);
  simdjson::dom::object trace = a["traces"].at(0).get_object();
  expect_keys_documented(names, trace["median"].get_object(), "median");
  expect_keys_documented(names, trace["time_breakdown"].get_object(), "time_breakdown");
  for (const char* key : {"main_kernel", "main_kernel_us", "launch_api", "occupancy_pct",
                          "occupancy_limiter", "kineto_occupancy_pct", "communication_overlap_pct"})
    EXPECT_TRUE(documented(names, key)) << key;
  simdjson::dom::object region = trace["regions"].at(0).get_object();
  for (auto field : region) {
    if (field.value.is_number()) {
      EXPECT_TRUE(documented(names, std::string(field.key)))
          << "regions[]." << field.key << " is not in docs/METRICS.md";
    }
  }
  // Every key of an activity, a kernel's and a copy's.
  std::set<std::string> kinds;
  for (simdjson::dom::object activity : region["activities"].get_array()) {
    kinds.insert(std::string(std::string_view(activity["kind"])));
    expect_keys_documented(names, activity, "activities[]");
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"kernel", "memcpy", "memset"}));

  auto csv =
      stdout_of("analyze --region forward --format csv " + testing::fixture("study_naive.json.gz"));
  std::istringstream header(csv.output.substr(0, csv.output.find('\n')));
  int columns = 0;
  for (std::string column; std::getline(header, column, ',');) {
    EXPECT_TRUE(documented(names, column)) << "CSV column " << column;
    ++columns;
  }
  EXPECT_EQ(columns, 28);
}

}  // namespace
}  // namespace attnprof
