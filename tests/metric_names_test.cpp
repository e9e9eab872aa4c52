// docs/METRICS.md against the code: its generated tables are what the catalogs write
// (render/metrics_doc.h), and every name that analyze's JSON and CSV and check's JSON print is a
// row of the doc, so that a command cannot speak a name the doc does not list.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "analysis/findings/finding_catalog.h"
#include "analysis/regions/region_fact_catalog.h"
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

// The words a catalog fact's column or row has in `format`: its label with the unit that a
// duration or a size adds, spaced in text ("GPU busy µs"), in parentheses in Markdown; its name
// where it has no label.
std::string catalog_words(const std::string& label, const std::string& name, FactUnit unit,
                          bool markdown) {
  if (label.empty()) return name;
  if (unit != FactUnit::kMicroseconds && unit != FactUnit::kMebibytes) return label;
  const std::string symbol(fact_unit_name(unit));
  return markdown ? label + " (" + symbol + ")" : label + " " + symbol;
}

// The catalog's columns of one of analyze's region tables, in its order.
std::vector<std::string> catalog_columns(RegionTable table, bool markdown) {
  std::vector<std::string> out;
  for (const RegionFact& f : region_fact_catalog())
    if (f.table == table) out.push_back(catalog_words(f.label, f.name, f.unit, markdown));
  return out;
}

// The cells of a Markdown table's row: "| a | b |" as {"a", "b"}.
std::vector<std::string> markdown_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::istringstream in(line.substr(1));
  for (std::string cell; std::getline(in, cell, '|');)
    cells.push_back(cell.substr(1, cell.size() - 2));
  return cells;
}

// Every column of analyze's region tables is a catalog fact's, in the catalog's order: the
// terminal's header (its words apart by two spaces or more) and Markdown's two tables of medians.
TEST(MetricNames, AnalyzesRegionTablesAreTheCatalogsColumns) {
  const std::vector<std::string> regions = catalog_columns(RegionTable::kRegions, false);
  EXPECT_GE(regions.size(), 6u);
  auto text = stdout_of("analyze --region forward " + testing::fixture("study_naive.json.gz"));
  std::istringstream lines(text.output);
  std::vector<std::string> header;
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("    # region ")) continue;
    const std::regex apart(" {2,}");
    for (std::sregex_token_iterator it(line.begin(), line.end(), apart, -1), end; it != end; ++it)
      if (!it->str().empty()) header.push_back(*it);
    break;
  }
  ASSERT_GE(header.size(), 1u) << text.output;  // "# region", then the facts' columns
  EXPECT_EQ(std::vector<std::string>(header.begin() + 1, header.end()), regions) << text.output;

  auto md =
      stdout_of("analyze --region forward --format md " + testing::fixture("study_naive.json.gz"));
  std::vector<std::vector<std::string>> tables;
  std::istringstream md_lines(md.output);
  for (std::string line, previous; std::getline(md_lines, line); previous = line)
    if (line.starts_with("|---:|") && previous.starts_with("| ") && tables.size() < 2)
      tables.push_back(markdown_cells(previous));
  ASSERT_EQ(tables.size(), 2u) << md.output;
  EXPECT_EQ(tables[0], catalog_columns(RegionTable::kRegions, true)) << md.output;
  EXPECT_EQ(tables[1], catalog_columns(RegionTable::kBreakdown, true)) << md.output;
}

// A fact in a region table is read per region and over the regions; one that diff compares has
// its value over the regions (diff reads two traces' facts, not their regions) and a unit whose
// rule diff has; parts are counts by kind.
TEST(MetricNames, TheTablesAndDiffsEntriesCanBeRead) {
  const TraceAnalysis t = testing::analyze_fixture("study_naive.json.gz", "forward");
  for (const RegionFact& f : region_fact_catalog()) {
    if (f.table != RegionTable::kNone) {
      EXPECT_TRUE(f.of_region && f.of_facts) << f.name;
      EXPECT_FALSE(f.label.empty()) << f.name;
    }
    if (!f.parts.empty()) {
      const RegionFact* parts = find_region_fact(f.parts);
      ASSERT_NE(parts, nullptr) << f.name;
      EXPECT_TRUE(parts->of_facts(t.facts).counts_by_kind) << f.name;
    }
    if (!f.diff) continue;
    ASSERT_TRUE(f.diff->value) << f.name;
    EXPECT_FALSE(f.diff->name.empty()) << f.name;
    const FactUnit u = f.diff->unit;
    EXPECT_TRUE(u == FactUnit::kCount || u == FactUnit::kMicroseconds || u == FactUnit::kMebibytes)
        << f.name;
    if (f.diff->name != f.name) {
      EXPECT_EQ(find_region_fact(f.diff->name), nullptr) << f.name << ": another fact's name";
    }
  }
}

// Every per-region quantity of diff's JSON is a catalog fact that diff compares, under its name,
// and every such fact both traces have is there, in JSON and in Markdown's rows: a quantity is
// added to diff by its catalog entry alone. Two real pairs: the study's masked_fill change (copies
// by kind), and Llama's eager and SDPA prefill with memory events (the peak, the waits).
TEST(MetricNames, EveryDiffQuantityIsACatalogFactThatDiffCompares) {
  for (const auto& [a, b, region] :
       {std::tuple{"study_naive.json.gz", "study_inplace.json.gz", "forward"},
        std::tuple{"models/llama-prefill-eager-memory.json.gz",
                   "models/llama-prefill-sdpa-memory.json.gz", "ProfilerStep#*"}}) {
    SCOPED_TRACE(a);
    const std::string files = testing::fixture(a) + " " + testing::fixture(b);
    const std::string pattern = std::string(" --region '") + region + "'";
    const TraceAnalysis ta = testing::analyze_fixture(a, region);
    const TraceAnalysis tb = testing::analyze_fixture(b, region);
    std::map<std::string, const FactComparison*> expected;  // diff's name: how
    for (const RegionFact& f : region_fact_catalog()) {
      if (!f.diff) continue;
      const MetricValue va = f.diff->value(ta.facts), vb = f.diff->value(tb.facts);
      const auto has = [](const MetricValue& v) {
        return v.available && (v.counts_by_kind || v.number.count > 0);
      };
      if (has(va) && has(vb)) expected[f.diff->name] = &*f.diff;
    }
    EXPECT_GE(expected.size(), 12u);

    simdjson::dom::parser parser;
    auto json = stdout_of("diff --format json" + pattern + " " + files);
    simdjson::dom::element doc = parser.parse(json.output);
    std::set<std::string> keys;
    for (auto field : doc["per_region"].get_object()) keys.insert(std::string(field.key));
    std::set<std::string> names;
    for (const auto& [name, how] : expected) names.insert(name);
    EXPECT_EQ(keys, names) << json.output;

    // Markdown's rows: a fact's words, or a count by kind's label and kind ("memcpy DtoD").
    std::set<std::string> words;
    for (const auto& [name, how] : expected)
      words.insert(catalog_words(how->label, how->name, how->unit, true));
    auto md = stdout_of("diff --format md" + pattern + " " + files);
    std::istringstream lines(md.output);
    bool in_table = false;
    int rows = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with("| per region |")) {
        in_table = true;
        continue;
      }
      if (!in_table || line.starts_with("|---")) continue;
      if (!line.starts_with("| ")) break;
      const std::string label = markdown_cells(line)[0];
      const bool by_kind =
          label.find(' ') != std::string::npos && words.count(label.substr(0, label.find(' ')));
      EXPECT_TRUE(words.count(label) || by_kind) << label << " is no catalog fact of diff's";
      ++rows;
    }
    EXPECT_GE(rows, 8) << md.output;
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
