// docs/METRICS.md against the code: its table of region facts is the catalog's
// (analysis/region_fact_catalog.h) as the catalog would write it, and every name that analyze's
// JSON and CSV and check's JSON print is a row of the doc, so that a command cannot speak a name
// the doc does not list.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "analysis/findings/finding_catalog.h"
#include "analysis/kernel_class.h"
#include "analysis/region_fact_catalog.h"
#include "analysis/region_metrics.h"
#include "test_support.h"

namespace attnprof {
namespace {

std::string read_doc() {
  std::ifstream in(std::string(ATTNPROF_SOURCE_DIR) + "/docs/METRICS.md");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Where a fact appears, in the doc's words.
std::string json_place(const RegionFact& f) {
  std::string place = f.json == FactJson::kMedian       ? "`median.NAME`"
                      : f.json == FactJson::kMainKernel ? "`NAME` (trace)"
                                                        : "";
  if (f.per_region) place += std::string(place.empty() ? "" : ", ") + "`regions[]`";
  if (f.name == "memcpy_by_kind") place += ", `regions[]`";
  return place.empty() ? "–" : place;
}

// The table the catalog gives: one row per fact, or per family (kernels.CLASS).
std::string generated_table() {
  std::string out =
      "| name | unit | meaning | analyze JSON | Python `regions` | check |\n"
      "|---|---|---|---|---|---|\n";
  std::set<std::string> families;
  for (const RegionFact& f : region_fact_catalog()) {
    if (!f.family.empty() && !families.insert(f.family).second) continue;
    const std::string& name = f.family.empty() ? f.name : f.family;
    out += "| `" + name + "` | " + std::string(fact_unit_name(f.unit)) + " | " + f.meaning + " | " +
           json_place(f) + " | " + (f.python_region ? "yes" : "–") + " | " +
           (f.check ? "yes" : "–") + " |\n";
  }
  return out;
}

// The findings as the catalog lists them.
std::string generated_findings() {
  std::string out =
      "| id | explains | kernel classes | actionable | meaning |\n"
      "|---|---|---|---|---|\n";
  for (const FindingDescription& f : finding_catalog()) {
    std::string classes;
    for (KernelClass c : kAllKernelClasses)
      if (f.classes & class_bits({c}))
        classes += (classes.empty() ? "`" : ", `") + std::string(kernel_class_id(c)) + "`";
    out += "| `" + std::string(f.id) + "` | " + std::string(explained_time_name(f.explains)) +
           " | " + (classes.empty() ? "–" : classes) + " | " + (f.actionable ? "yes" : "no") +
           " | " + std::string(f.description) + " |\n";
  }
  return out;
}

// The text between two markers of the doc.
std::string between(const std::string& doc, const std::string& begin, const std::string& end) {
  const size_t from = doc.find(begin), to = doc.find(end);
  if (from == std::string::npos || to == std::string::npos) return "(markers missing)";
  return doc.substr(from + begin.size(), to - from - begin.size());
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

TEST(MetricNames, TheDocsRegionFactsTableIsTheCatalogs) {
  const std::string doc = read_doc();
  const std::string begin = "<!-- region facts: generated from the catalog -->\n";
  const std::string end = "<!-- end of region facts -->";
  const size_t from = doc.find(begin), to = doc.find(end);
  ASSERT_NE(from, std::string::npos) << "docs/METRICS.md lost its marker";
  ASSERT_NE(to, std::string::npos);
  EXPECT_EQ(doc.substr(from + begin.size(), to - from - begin.size()), generated_table())
      << "docs/METRICS.md's region facts differ from the catalog; the table it should hold:\n"
      << generated_table();
}

TEST(MetricNames, TheDocsFindingsTableIsTheCatalogs) {
  EXPECT_EQ(between(read_doc(), "<!-- findings: generated from the catalog -->\n",
                    "<!-- end of findings -->"),
            generated_findings())
      << "docs/METRICS.md's findings differ from the catalog; the table it should hold:\n"
      << generated_findings();
  // Ids are unique, and each finding that explains time by kernel classes names some.
  std::set<std::string_view> ids;
  for (const FindingDescription& f : finding_catalog()) {
    EXPECT_TRUE(ids.insert(f.id).second) << f.id;
    if (f.kind) {
      EXPECT_EQ(finding_id(*f.kind), f.id);
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
