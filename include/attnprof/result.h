#pragma once
// The result type of everything in the core that can fail on its input.
// The core throws no exceptions for bad input: a function returns Result<T>, the caller
// checks it, and only the CLI turns an Error into an exit code (docs/PRACTICES.md, errors).

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include <fmt/format.h>

namespace attnprof {

// What kind of failure an Error is, for a program that reacts to it (retry, skip the file, raise
// a limit) without reading the message, as simdjson's error codes do. Each has a stable name
// (error_kind_name), which JSON outputs and the Python module carry.
enum class ErrorKind : uint8_t {
  kIo,         // "io": a file could not be opened, read, listed or written
  kNotATrace,  // "not_a_trace": a readable file that is not a Kineto trace (empty, an array, no
               // traceEvents, another JSON document)
  kMalformed,  // "malformed": the bytes break their format: JSON syntax, a corrupt gzip, a bad
               // summary.json, sweep.csv, ncu CSV or expectations file
  kTruncated,  // "truncated": the file ends early (an interrupted copy or recording)
  kLimit,      // "limit": a --max-* limit was reached (bytes, gzip ratio, events, depth, strings)
  kUsage,      // "usage": a flag or argument the command cannot take
  kUnmatched,  // "unmatched": the region pattern matched nothing
};

inline constexpr std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kIo:
      return "io";
    case ErrorKind::kNotATrace:
      return "not_a_trace";
    case ErrorKind::kMalformed:
      return "malformed";
    case ErrorKind::kTruncated:
      return "truncated";
    case ErrorKind::kLimit:
      return "limit";
    case ErrorKind::kUsage:
      return "usage";
    case ErrorKind::kUnmatched:
      return "unmatched";
  }
  return "?";
}

// One clear line: what went wrong, where (file, byte offset), what to do; and its kind.
struct Error {
  ErrorKind kind = ErrorKind::kMalformed;
  std::string message;
};

template <typename... Args>
[[nodiscard]] Error make_error(ErrorKind kind, fmt::format_string<Args...> format, Args&&... args) {
  return Error{kind, fmt::format(format, std::forward<Args>(args)...)};
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(state_); }
  Error&& take_error() { return std::get<1>(std::move(state_)); }

 private:
  std::variant<T, Error> state_;
};

// For operations that produce nothing but can fail.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), failed_(true) {}
  static Status success() { return {}; }

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return error_; }
  Error&& take_error() { return std::move(error_); }

 private:
  Error error_;
  bool failed_ = false;
};

}  // namespace attnprof

// Propagates a failed Status or Result from the current function.
#define ATTNPROF_RETURN_IF_ERROR(expr)                                \
  do {                                                                \
    auto&& attnprof_status_ = (expr);                                 \
    if (!attnprof_status_.ok()) return attnprof_status_.take_error(); \
  } while (0)
