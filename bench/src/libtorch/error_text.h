#pragma once
// LibTorch's exceptions as one line for a table cell.

#include <c10/util/Exception.h>

#include <exception>
#include <string>

namespace attnprof::bench {

// The message without LibTorch's C++ backtrace, up to its first line break (LibTorch's messages
// go on with hints and allocator statistics that the JSON summary does not need either).
inline std::string error_text(const std::exception& error) {
  const auto* torch_error = dynamic_cast<const c10::Error*>(&error);
  std::string text = torch_error ? torch_error->what_without_backtrace() : error.what();
  if (const auto end = text.find('\n'); end != std::string::npos) text.resize(end);
  return text;
}

}  // namespace attnprof::bench
