#include "study/run/run_summary_json.h"

#include <cmath>

#include "render/facts_json.h"
#include "study/run/run_summary_fields.h"

namespace attnprof {

namespace {

// Writes the run model through its field tables (study/run/run_summary_fields.h).
class SummaryWriter {
 public:
  SummaryWriter(JsonWriter& json, uint32_t additions) : json_(json), additions_(additions) {}

  template <typename Value>
  void operator()(std::string_view key, const Value& value, const FieldOptions& o = {}) {
    if (!written(o)) return;
    if constexpr (is_optional<Value>::value) {
      if (!value && o.null_is_absent) return;
    }
    json_.key(key);
    write(value, o);
  }

  template <typename Body>
  void group(std::string_view key, bool present, Body body, const FieldOptions& o = {}) {
    if (!written(o)) return;
    json_.key(key);
    if (!present) {
      json_.null();
      return;
    }
    json_.begin_object();
    body();
    json_.end_object();
  }
  template <typename Body>
  void flagged_group(std::string_view key, const bool& flag, Body body,
                     const FieldOptions& o = {}) {
    group(key, flag, body, o);
  }

  void word(std::string_view key, bool flag, std::string_view if_true, std::string_view if_false,
            bool present, const FieldOptions& o = {}) {
    if (!written(o)) return;
    json_.key(key);
    if (present)
      json_.string(flag ? if_true : if_false);
    else
      json_.null();
  }

  void derived(std::string_view key, const std::optional<double>& value) {
    json_.key(key);
    write(value, {});
  }

  void region_facts(const RegionFacts& facts) {
    write_median_fields(json_, facts);
    write_main_kernel_fields(json_, facts);
  }

  void actual_values(std::string_view key, const std::vector<ActualValue>& values) {
    json_.key(key).begin_object();
    for (const ActualValue& v : values) {
      json_.key(v.metric);
      if (!v.available)
        json_.null();
      else if (v.number)
        json_.number(*v.number);
      else
        json_.string(v.text);
    }
    json_.end_object();
  }

 private:
  template <typename T>
  struct is_optional : std::false_type {};
  template <typename T>
  struct is_optional<std::optional<T>> : std::true_type {};

  bool written(const FieldOptions& o) const {
    return !o.addition || (additions_ & addition_bit(*o.addition)) != 0;
  }

  void write(double v, const FieldOptions& o) { json_.number(o.scale == 1 ? v : v / o.scale); }
  void write(int64_t v, const FieldOptions&) { json_.number(v); }
  void write(int v, const FieldOptions&) { json_.number(v); }
  void write(bool v, const FieldOptions&) { json_.boolean(v); }
  void write(const std::string& v, const FieldOptions& o) {
    if (o.empty_is_null && v.empty())
      json_.null();
    else
      json_.string(v);
  }
  // An enum: its word in its names table (enum_names).
  template <typename E>
  requires std::is_enum_v<E>
  void write(const E& v, const FieldOptions&) { json_.string(name_in(enum_names(v), v)); }
  template <typename T>
  void write(const std::optional<T>& v, const FieldOptions& o) {
    if (v)
      write(*v, o);
    else
      json_.null();
  }
  template <typename T>
  void write(const std::vector<T>& list, const FieldOptions& o) {
    json_.begin_array();
    for (const T& item : list) write(item, o);
    json_.end_array();
  }
  // A nested object: its own table.
  template <typename T>
  void write(const T& object, const FieldOptions&) {
    json_.begin_object();
    summary_fields(*this, object);
    json_.end_object();
  }

  JsonWriter& json_;
  uint32_t additions_;
};

}  // namespace

std::string write_run_summary(const RunSummary& run) {
  JsonWriter json;
  SummaryWriter writer(json, run.additions);
  json.begin_object();
  summary_fields(writer, run);
  json.end_object();
  return json.take() + "\n";
}

}  // namespace attnprof
