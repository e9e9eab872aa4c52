// `attnprof check --format junit`: the JUnit XML that CI systems show as test results (GitLab,
// Jenkins, GitHub's test reporters). One test suite per checked trace (per variant of a study),
// one test case per expectation; a failing expectation carries a <failure> with what the trace
// shows. Text goes through the HTML escaper, which is XML's too: & < > " ' as entities, and the
// control bytes and invalid UTF-8 that XML 1.0 cannot hold at all written as visible \xNN.

#include <fmt/format.h>

#include "render/check/check_output.h"
#include "render/escape_html.h"

namespace attnprof {

std::string render_check_junit(const std::string& checked,
                               const std::vector<CheckReport>& reports) {
  size_t tests = 0, failures = 0;
  for (const auto& report : reports)
    for (const auto& r : report.results) {
      ++tests;
      failures += r.holds ? 0 : 1;
    }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"attnprof check {}\" tests=\"{}\" failures=\"{}\">\n",
                     html_escape(checked), tests, failures);
  for (const auto& report : reports) {
    const std::string suite = report.variant.empty() ? report.analysis.path : report.variant;
    size_t suite_failures = 0;
    for (const auto& r : report.results) suite_failures += r.holds ? 0 : 1;
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
                       html_escape(suite), report.results.size(), suite_failures);
    for (const auto& r : report.results) {
      const std::string name = r.source.empty() ? r.text : r.source + ": " + r.text;
      out += fmt::format("    <testcase classname=\"{}\" name=\"{}\"", html_escape(suite),
                         html_escape(name));
      if (r.holds) {
        out += fmt::format(">\n      <system-out>actual: {}</system-out>\n    </testcase>\n",
                           html_escape(r.actual));
      } else {
        out += fmt::format(
            ">\n      <failure message=\"{}\" type=\"expectation\">expected: {}\nactual: "
            "{}</failure>\n    </testcase>\n",
            html_escape("actual: " + r.actual), html_escape(r.text), html_escape(r.actual));
      }
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace attnprof
