#include "cli/limit_options.h"

#include <charconv>
#include <limits>
#include <string>

namespace attnprof::cli {

std::optional<uint64_t> parse_count(std::string_view text, uint64_t max) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end || value > max) return std::nullopt;
  return value;
}

std::optional<uint64_t> parse_size(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  std::optional<uint64_t> number =
      parse_count(text.substr(0, digits), std::numeric_limits<uint64_t>::max());
  if (!number) return std::nullopt;
  std::string suffix(text.substr(digits));
  for (char& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (suffix.size() >= 2 && suffix.compare(suffix.size() - 2, 2, "IB") == 0)
    suffix.resize(suffix.size() - 2);
  else if (suffix.size() >= 2 && suffix.back() == 'B')
    suffix.pop_back();
  else if (suffix == "B")
    suffix.clear();
  int shift = 0;
  if (suffix.empty())
    shift = 0;
  else if (suffix == "K")
    shift = 10;
  else if (suffix == "M")
    shift = 20;
  else if (suffix == "G")
    shift = 30;
  else if (suffix == "T")
    shift = 40;
  else if (suffix == "P")
    shift = 50;
  else
    return std::nullopt;
  if (shift > 0 && *number > (std::numeric_limits<uint64_t>::max() >> shift)) return std::nullopt;
  return *number << shift;
}

namespace {

bool limits_shown = false;

// An empty group hides the flags from --help: seven --max-* flags in every command's help buried
// the useful ones. --help-all shows them under "Limits".
std::string limit_group() {
  return limits_shown ? "Limits" : "";
}

void add_size(CLI::App& cmd, const std::string& name, uint64_t& value, const std::string& help) {
  cmd.add_option_function<std::string>(
         name,
         [&value, name](const std::string& text) {
           std::optional<uint64_t> size = parse_size(text);
           if (!size)
             throw CLI::ValidationError(name, "'" + text +
                                                  "' is not a size: give bytes, or a number "
                                                  "with K, M, G or T (binary: 1G = 2^30)");
           value = *size;
         },
         help)
      ->type_name("SIZE")
      ->group(limit_group());
}

template <typename T>
void add_count(CLI::App& cmd, const std::string& name, T& value, const std::string& help) {
  cmd.add_option_function<std::string>(
         name,
         [&value, name](const std::string& text) {
           std::optional<uint64_t> count = parse_count(text, std::numeric_limits<T>::max());
           if (!count)
             throw CLI::ValidationError(name, "'" + text + "' is not a whole number from 0 to " +
                                                  std::to_string(std::numeric_limits<T>::max()));
           value = static_cast<T>(*count);
         },
         help)
      ->type_name("N")
      ->group(limit_group());
}

}  // namespace

void show_limit_flags(bool shown) {
  limits_shown = shown;
}

void LimitOptions::add_to(CLI::App& cmd) {
  add_size(cmd, "--max-json-bytes", limits.max_decompressed_bytes,
           "Refuse traces whose JSON is larger (default 64G; suffixes K, M, G, T)");
  add_count(cmd, "--max-gzip-ratio", limits.max_gzip_ratio,
            "Refuse gzip files that expand more than this many times (default 200)");
  add_size(cmd, "--max-event-bytes", limits.max_event_bytes,
           "Refuse a single event larger than this (default 64M)");
  add_count(cmd, "--max-events", limits.max_events,
            "Refuse traces with more events (default 2^32)");
  add_count(cmd, "--max-depth", limits.max_depth,
            "Refuse JSON nested deeper than this many arrays and objects (default 1024)");
  add_size(cmd, "--max-string-bytes", limits.max_string_bytes,
           "Refuse a single string (a name, a key) longer than this (default 1M)");
  add_size(cmd, "--max-side-file-bytes", limits.max_side_file_bytes,
           "Refuse an expectations file, summary.json or sweep.csv larger than this (default 64M)");
  add_count(cmd, "--max-variants", limits.max_variants,
            "Refuse a summary.json that lists more variants over all its points (default 10000)");
  add_count(cmd, "--max-expectations", limits.max_expectations,
            "Refuse an expectations file, or a summary.json, with more expressions (default "
            "10000)");
  add_count(cmd, "--max-side-file-items", limits.max_side_file_items,
            "Refuse a summary.json whose lists hold more items in all (default 100000)");
  add_count(cmd, "--max-region-overlap", limits.max_region_overlap,
            "Refuse more regions than this open at one time that hold different work (default "
            "1000)");
}

}  // namespace attnprof::cli
