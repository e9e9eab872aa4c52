// Evaluating expectations on a trace's region metrics (the parser is expectation_parser.cpp).

#include "analysis/expectations/expectation_evaluation.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/text_match.h"

namespace attnprof {

namespace {

std::string format_number(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9 && std::fabs(v) < 1e15)
    return fmt::format("{}", static_cast<int64_t>(std::round(v)));
  std::string s = fmt::format("{:.3f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::string format_actual(const MetricValue& v) {
  if (!v.available) return "n/a (" + v.why_unavailable + ")";
  if (v.type == MetricType::kText) return v.texts.empty() ? std::string() : v.texts.front();
  const Spread& s = v.number;
  if (s.count <= 1 || !s.varies()) return format_number(s.median);
  return fmt::format("{} (median of {} regions, {}..{})", format_number(s.median), s.count,
                     format_number(s.min), format_number(s.max));
}

bool numbers_equal(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

bool compare(const Comparison& c, const MetricValue& v) {
  if (!v.available) return false;  // what the trace cannot tell fails every comparison
  if (v.type == MetricType::kNumber) {
    double a = v.number.median, b = *c.number;
    switch (c.op) {
      case CompareOp::kEq:
        return numbers_equal(a, b);
      case CompareOp::kNe:
        return !numbers_equal(a, b);
      case CompareOp::kLt:
        return a < b && !numbers_equal(a, b);
      case CompareOp::kLe:
        return a <= b || numbers_equal(a, b);
      case CompareOp::kGt:
        return a > b && !numbers_equal(a, b);
      case CompareOp::kGe:
        return a >= b || numbers_equal(a, b);
      default:
        return false;
    }
  }
  auto equal = [&](const std::string& s) { return s == c.value; };
  auto contains = [&](const std::string& s) { return contains_ignoring_case(s, c.value); };
  const auto& t = v.texts;
  switch (c.op) {
    case CompareOp::kEq:
      return std::any_of(t.begin(), t.end(), equal);
    case CompareOp::kNe:
      return std::none_of(t.begin(), t.end(), equal);
    case CompareOp::kContains:
      return std::any_of(t.begin(), t.end(), contains);
    case CompareOp::kNotContains:
      return std::none_of(t.begin(), t.end(), contains);
    default:
      return false;
  }
}

ActualValue actual_value(const std::string& metric, const MetricValue& v) {
  ActualValue out;
  out.metric = metric;
  out.available = v.available;
  if (!v.available) return out;
  if (v.type == MetricType::kText) {
    if (!v.texts.empty()) out.text = v.texts.front();
  } else {
    out.number = v.number.median;
    out.min = v.number.min;
    out.max = v.number.max;
    out.regions = v.number.count;
  }
  return out;
}

// A comparison against the baseline made into one against a value: the baseline's median (or
// its first spelling), scaled as written. Fails, saying why, when there is nothing to read.
std::optional<Comparison> against_baseline(const Comparison& c, const TraceAnalysis* baseline,
                                           std::string& why_not) {
  if (!baseline) {
    why_not = "no baseline: give check --baseline TRACE_OR_STUDY";
    return std::nullopt;
  }
  const MetricValue b = metric_value(*baseline, c.baseline->metric);
  if (!b.available) {
    why_not = "the baseline's " + c.baseline->metric + " is n/a (" + b.why_unavailable + ")";
    return std::nullopt;
  }
  Comparison made = c;
  if (b.type == MetricType::kNumber) {
    made.number = c.baseline->applied_to(b.number.median);
    made.value = format_number(*made.number);
  } else {
    made.value = b.texts.empty() ? std::string() : b.texts.front();
  }
  return made;
}

}  // namespace

bool uses_baseline(const std::vector<Expectation>& expectations) {
  for (const auto& e : expectations)
    for (const auto& c : e.all_of)
      if (c.baseline) return true;
  return false;
}

ExpectationResult evaluate_expectation(const Expectation& e, const TraceAnalysis& analysis,
                                       const TraceAnalysis* baseline) {
  ExpectationResult r;
  r.text = e.text;
  r.source = e.source;
  r.holds = true;
  for (const auto& given : e.all_of) {
    MetricValue v = metric_value(analysis, given.metric);
    std::string baseline_words;
    std::optional<Comparison> made = given;
    if (given.baseline) {
      std::string why_not;
      made = against_baseline(given, baseline, why_not);
      baseline_words =
          made ? " against " + given.value + " = " + made->value : " (" + why_not + ")";
    }
    const Comparison& c = made ? *made : given;
    bool holds = made && compare(c, v);
    r.holds = r.holds && holds;
    r.values.push_back(actual_value(c.metric, v));
    std::string actual = format_actual(v);
    // A text metric with several spellings failed on all of them: show the full name too.
    if (!holds && v.available && v.texts.size() > 1) {
      std::string full = v.texts[1].size() > 120 ? v.texts[1].substr(0, 117) + "..." : v.texts[1];
      actual += " (full name: " + full + ")";
    }
    actual += baseline_words;
    if (e.all_of.size() > 1) actual = c.metric + " = " + actual;
    r.actual += (r.actual.empty() ? "" : "; ") + actual;
  }
  return r;
}

std::vector<ExpectationResult> check_expectations(const std::vector<Expectation>& expectations,
                                                  const TraceAnalysis& analysis,
                                                  const TraceAnalysis* baseline) {
  std::vector<ExpectationResult> out;
  out.reserve(expectations.size());
  for (const auto& e : expectations) out.push_back(evaluate_expectation(e, analysis, baseline));
  return out;
}

}  // namespace attnprof
