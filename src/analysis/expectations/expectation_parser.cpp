// The expression language of `check`: one line of text to an Expectation, or a SyntaxError.

#include "analysis/expectations/expectation_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "analysis/kernels/kernel_class.h"
#include "analysis/text_match.h"

namespace attnprof {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}
bool is_metric_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_metric_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

std::optional<double> parse_number(std::string_view token) {
  if (token.empty()) return std::nullopt;
  if (token.front() == '+') token.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// What to say about an unknown metric: the closest known name, or the list of them.
std::string unknown_metric_hint(std::string_view name) {
  const MetricInfo* closest = nullptr;
  size_t best = 0;
  for (const auto& info : metric_catalog()) {
    size_t d = edit_distance(to_lower(name), info.name);
    if (!closest || d < best) {
      closest = &info;
      best = d;
    }
  }
  if (closest && best <= std::max<size_t>(2, name.size() / 4))
    return fmt::format("did you mean {}?", closest->name);
  std::string known;
  for (const auto& info : metric_catalog())
    if (info.name.find('.') == std::string::npos) known += (known.empty() ? "" : ", ") + info.name;
  std::string classes;
  for (KernelClass k : kAllKernelClasses)
    classes += std::string(classes.empty() ? "" : ", ") + std::string(kernel_class_id(k));
  return fmt::format("metrics: {}, kernels.CLASS, gpu_time_us.CLASS with CLASS one of {}", known,
                     classes);
}

// Two-character spellings first, so that `<=` is not read as `<`.
constexpr std::pair<std::string_view, CompareOp> kOps[] = {
    {"==", CompareOp::kEq}, {"!=", CompareOp::kNe},          {"<=", CompareOp::kLe},
    {">=", CompareOp::kGe}, {"!~", CompareOp::kNotContains}, {"<", CompareOp::kLt},
    {">", CompareOp::kGt},  {"~", CompareOp::kContains}};

// A recursive-descent reading of one line; `pos_` is a 0-based index into `text_`.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::variant<Expectation, SyntaxError> parse() {
    Expectation e;
    skip_spaces();
    size_t first = pos_;
    for (;;) {
      Comparison c;
      if (!parse_comparison(c)) return error_;
      e.all_of.push_back(std::move(c));
      size_t last = pos_;
      skip_spaces();
      if (at_end()) {
        e.text = std::string(text_.substr(first, last - first));
        return e;
      }
      size_t word_start = pos_;
      std::string_view word = bare_token();
      if (word != "and") return fail(word_start, "expected \"and\" or the end of the expression");
      skip_spaces();
    }
  }

 private:
  bool at_end() const { return pos_ >= text_.size() || text_[pos_] == '#'; }
  void skip_spaces() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }
  std::variant<Expectation, SyntaxError> fail(size_t at, std::string what, std::string hint = {}) {
    error_ = SyntaxError{static_cast<int>(at) + 1, std::move(what), std::move(hint)};
    return error_;
  }
  bool failed(size_t at, std::string what, std::string hint = {}) {
    fail(at, std::move(what), std::move(hint));
    return false;
  }
  // A run of characters up to a space, a quote or a comment.
  std::string_view bare_token() {
    size_t start = pos_;
    while (pos_ < text_.size() && !is_space(text_[pos_]) && text_[pos_] != '"' &&
           text_[pos_] != '#')
      ++pos_;
    return text_.substr(start, pos_ - start);
  }

  bool parse_comparison(Comparison& c) {
    size_t metric_at = pos_;
    if (at_end() || !is_metric_start(text_[pos_])) return failed(pos_, "expected a metric name");
    while (pos_ < text_.size() && is_metric_char(text_[pos_])) ++pos_;
    c.metric = std::string(text_.substr(metric_at, pos_ - metric_at));
    const MetricInfo* metric = find_metric(c.metric);
    if (!metric)
      return failed(metric_at, fmt::format("unknown metric \"{}\"", c.metric),
                    unknown_metric_hint(c.metric));
    skip_spaces();

    size_t op_at = pos_;
    if (!parse_op(c.op))
      return failed(op_at, "expected an operator", "operators: == != < <= > >= ~ !~");
    bool text_op = c.op == CompareOp::kContains || c.op == CompareOp::kNotContains;
    bool order_op = c.op != CompareOp::kEq && c.op != CompareOp::kNe && !text_op;
    if (metric->type == MetricType::kNumber && text_op)
      return failed(op_at, fmt::format("{} needs a text metric", op_text(c.op)),
                    fmt::format("{} is a number: use == != < <= > >=", c.metric));
    if (metric->type == MetricType::kText && order_op)
      return failed(op_at, fmt::format("{} needs a number metric", op_text(c.op)),
                    fmt::format("{} is text: use == != ~ !~", c.metric));
    skip_spaces();

    size_t value_at = pos_;
    if (at_end()) return failed(pos_, "expected a value");
    bool quoted = text_[pos_] == '"';
    if (quoted) {
      if (!quoted_string(c.value)) return failed(value_at, "unterminated string");
    } else {
      c.value = std::string(bare_token());
      c.number = parse_number(c.value);
      if (c.value.starts_with("baseline.")) return parse_baseline(c, *metric, value_at);
    }
    if (metric->type == MetricType::kNumber && !c.number)
      return failed(value_at, "expected a number", fmt::format("{} is a number", c.metric));
    return true;
  }

  // `baseline.METRIC [(* | / | + | -) NUMBER]`, the value already read as a bare word.
  bool parse_baseline(Comparison& c, const MetricInfo& metric, size_t value_at) {
    BaselineValue b;
    b.metric = c.value.substr(std::string_view("baseline.").size());
    const MetricInfo* of = find_metric(b.metric);
    if (!of)
      return failed(value_at + 9, fmt::format("unknown metric \"{}\"", b.metric),
                    unknown_metric_hint(b.metric));
    if (of->type != metric.type)
      return failed(value_at,
                    fmt::format("baseline.{} is {} where {} is {}", b.metric,
                                of->type == MetricType::kText ? "text" : "a number", c.metric,
                                metric.type == MetricType::kText ? "text" : "a number"));
    skip_spaces();
    if (!at_end() && std::string_view("*/+-").find(text_[pos_]) != std::string_view::npos) {
      if (metric.type == MetricType::kText) return failed(pos_, "arithmetic needs a number metric");
      b.op = text_[pos_++];
      skip_spaces();
      const size_t operand_at = pos_;
      const std::string operand(bare_token());
      std::optional<double> n = parse_number(operand);
      if (!n) return failed(operand_at, "expected a number", "as in baseline.gpu_busy_us * 1.05");
      if (b.op == '/' && *n == 0) return failed(operand_at, "division by zero");
      b.operand = *n;
    }
    c.value =
        b.op ? fmt::format("baseline.{} {} {}", b.metric, b.op, b.operand) : "baseline." + b.metric;
    c.baseline = std::move(b);
    return true;
  }

  bool parse_op(CompareOp& op) {
    std::string_view rest = text_.substr(pos_);
    for (const auto& [spelling, value] : kOps) {
      if (rest.substr(0, spelling.size()) == spelling) {
        op = value;
        pos_ += spelling.size();
        return true;
      }
    }
    return false;
  }

  // At an opening quote: reads up to the closing one; \" and \\ are escapes.
  bool quoted_string(std::string& out) {
    ++pos_;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == '"') return true;
      if (c == '\\' && pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\\'))
        c = text_[pos_++];
      out += c;
    }
    return false;
  }

  std::string_view text_;
  size_t pos_ = 0;
  SyntaxError error_;
};

}  // namespace

std::variant<Expectation, SyntaxError> parse_expression(std::string_view text) {
  return Parser(text).parse();
}

std::string describe(const SyntaxError& e, std::string_view text) {
  return fmt::format("{} at column {}: {}{}", e.what, e.column, text,
                     e.hint.empty() ? "" : " (" + e.hint + ")");
}

std::string_view op_text(CompareOp op) {
  for (const auto& [spelling, value] : kOps)
    if (value == op) return spelling;
  return "?";
}

Result<Expectation> parse_expectation(std::string_view text) {
  auto parsed = parse_expression(text);
  if (auto* e = std::get_if<SyntaxError>(&parsed))
    return Error{ErrorKind::kMalformed, describe(*e, text)};
  return std::get<Expectation>(std::move(parsed));
}

Result<std::vector<Expectation>> parse_expectations(std::string_view content,
                                                    std::string_view source) {
  std::vector<Expectation> out;
  size_t line_number = 0;
  while (!content.empty()) {
    size_t end = content.find('\n');
    std::string_view line = content.substr(0, end);
    content = end == std::string_view::npos ? std::string_view() : content.substr(end + 1);
    ++line_number;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    auto parsed = parse_expression(line);
    if (auto* e = std::get_if<SyntaxError>(&parsed)) {
      size_t last = line.find_last_not_of(" \t\r");
      return make_error(ErrorKind::kMalformed, "{}:{}:{}: {}: {}{}", source, line_number, e->column,
                        e->what, line.substr(first, last + 1 - first),
                        e->hint.empty() ? "" : " (" + e->hint + ")");
    }
    Expectation expectation = std::get<Expectation>(std::move(parsed));
    expectation.source = fmt::format("{}:{}", source, line_number);
    out.push_back(std::move(expectation));
  }
  return out;
}

}  // namespace attnprof
