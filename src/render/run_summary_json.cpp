#include "render/run_summary_json.h"

#include "reader/run_summary_fields.h"

namespace attnprof {

namespace {

template <typename Owner, size_t N>
void write_fields(JsonWriter& json, const Owner& owner,
                  const std::array<SummaryField<Owner>, N>& fields) {
  json.begin_object();
  for (const SummaryField<Owner>& f : fields) {
    json.key(f.key);
    switch (f.type) {
      case SummaryType::kInteger:
        json.number(owner.*f.integer);
        break;
      case SummaryType::kText:
        if (f.empty_is_null && (owner.*f.text).empty())
          json.null();
        else
          json.string(owner.*f.text);
        break;
      case SummaryType::kBoolean:
        json.boolean(owner.*f.boolean);
        break;
    }
  }
  json.end_object();
}

}  // namespace

void write_run_problem(JsonWriter& json, const RunProblem& problem) {
  write_fields(json, problem, kProblemFields);
}

void write_run_environment(JsonWriter& json, const RunSummary& run) {
  write_fields(json, run, kEnvironmentFields);
}

}  // namespace attnprof
