#include "render/metrics_doc.h"

#include <set>

#include "analysis/findings/finding_catalog.h"
#include "analysis/kernels/kernel_class.h"
#include "analysis/regions/region_fact_catalog.h"

namespace attnprof {

namespace {

// Where analyze's JSON writes a fact, in the doc's words.
std::string json_place(const RegionFact& f) {
  std::string place = f.json == FactJson::kMedian       ? "`median.NAME`"
                      : f.json == FactJson::kMainKernel ? "`NAME` (trace)"
                                                        : "";
  if (f.region_json != RegionJson::kNone)
    place += std::string(place.empty() ? "" : ", ") + "`regions[]`";
  return place.empty() ? "–" : place;
}

// Which of analyze's region tables show a fact, in the doc's words.
std::string table_place(const RegionFact& f) {
  switch (f.table) {
    case RegionTable::kRegions:
      return "terminal, Markdown";
    case RegionTable::kBreakdown:
      return "Markdown breakdown";
    case RegionTable::kNone:
      break;
  }
  return "–";
}

// How diff compares a fact, in the doc's words: under another name and unit where it has them,
// and whether its text, Markdown and HTML show it only where it changed.
std::string diff_place(const RegionFact& f) {
  if (!f.diff) return "–";
  std::string place = f.diff->name == f.name ? "yes"
                                             : "`" + f.diff->name + "` (" +
                                                   std::string(fact_unit_name(f.diff->unit)) + ")";
  if (f.diff->shown == DiffShown::kWhenChanged) place += ", its rows where changed";
  return place;
}

struct Section {
  std::string_view begin;  // the line before the section, with its newline
  std::string_view end;    // the text that follows the section
  std::string (*text)();
};

constexpr Section kSections[] = {
    {"<!-- region facts: generated from the catalog -->\n", "<!-- end of region facts -->",
     metrics_doc_region_facts},
    {"<!-- findings: generated from the catalog -->\n", "<!-- end of findings -->",
     metrics_doc_findings},
};

}  // namespace

std::string metrics_doc_region_facts() {
  std::string out =
      "| name | unit | meaning | analyze JSON | Python `regions` | check | region tables | diff "
      "|\n"
      "|---|---|---|---|---|---|---|---|\n";
  std::set<std::string> families;
  for (const RegionFact& f : region_fact_catalog()) {
    if (!f.family.empty() && !families.insert(f.family).second) continue;
    const std::string& name = f.family.empty() ? f.name : f.family;
    out += "| `" + name + "` | " + std::string(fact_unit_name(f.unit)) + " | " + f.meaning + " | " +
           json_place(f) + " | " + (f.python_region ? "yes" : "–") + " | " +
           (f.check ? "yes" : "–") + " | " + table_place(f) + " | " + diff_place(f) + " |\n";
  }
  return out;
}

std::string metrics_doc_findings() {
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

Result<std::string> with_generated_sections(std::string_view doc) {
  std::string out(doc);
  for (const Section& s : kSections) {
    const size_t begin = out.find(s.begin);
    const size_t end = begin == std::string::npos ? begin : out.find(s.end, begin);
    if (end == std::string::npos)
      return make_error(ErrorKind::kMalformed, "the doc lacks the marker \"{}\"",
                        begin == std::string::npos ? s.begin.substr(0, s.begin.size() - 1) : s.end);
    const size_t from = begin + s.begin.size();
    out.replace(from, end - from, s.text());
  }
  return out;
}

}  // namespace attnprof
