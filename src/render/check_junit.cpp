// `attnprof check --format junit`: the JUnit XML that CI systems show as test results (GitLab,
// Jenkins, GitHub's test reporters). One test suite per checked trace (per variant of a study),
// one test case per expectation; a failing expectation carries a <failure> with what the trace
// shows.

#include <fmt/format.h>

#include "render/check_output.h"

namespace attnprof {

namespace {

// XML text and attribute values: & < > " ' escaped, and the control bytes XML 1.0 cannot hold
// at all (escaped or not) written as visible \xNN.
std::string xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if ((u < 0x20 && c != '\t' && c != '\n' && c != '\r') || u == 0x7f)
          out += fmt::format("\\x{:02x}", u);
        else
          out += c;
    }
  }
  return out;
}

}  // namespace

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
                     xml(checked), tests, failures);
  for (const auto& report : reports) {
    const std::string suite = report.variant.empty() ? report.analysis.path : report.variant;
    size_t suite_failures = 0;
    for (const auto& r : report.results) suite_failures += r.holds ? 0 : 1;
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
                       xml(suite), report.results.size(), suite_failures);
    for (const auto& r : report.results) {
      const std::string name = r.source.empty() ? r.text : r.source + ": " + r.text;
      out += fmt::format("    <testcase classname=\"{}\" name=\"{}\"", xml(suite), xml(name));
      if (r.holds) {
        out += fmt::format(">\n      <system-out>actual: {}</system-out>\n    </testcase>\n",
                           xml(r.actual));
      } else {
        out += fmt::format(
            ">\n      <failure message=\"{}\" type=\"expectation\">expected: {}\nactual: "
            "{}</failure>\n    </testcase>\n",
            xml("actual: " + r.actual), xml(r.text), xml(r.actual));
      }
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace attnprof
