#include "render/region_memory_text.h"

#include <iterator>

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"

namespace attnprof {

namespace {

constexpr size_t kHoldersShown = 5;

const RegionSummary* typical_with_memory(const TraceAnalysis& t) {
  if (t.typical_region < 0) return nullptr;
  const RegionSummary& r = t.regions[static_cast<size_t>(t.typical_region)];
  return r.memory.empty() ? nullptr : &r;
}

std::string heading(const TraceAnalysis& t) {
  return fmt::format("Memory of the typical region (#{}), per CUDA device ([memory] events)",
                     t.typical_region + 1);
}

}  // namespace

std::string memory_peak_words(const RegionMemory& m) {
  std::string where = m.peak_op.empty() ? std::string("outside every op") : "in " + m.peak_op;
  if (!m.peak_module.empty()) where += fmt::format(" (module {})", m.peak_module);
  return fmt::format(
      "peak {} allocated at {} into the region, {}; {} at the start, {} at the end; {} reserved "
      "at most",
      format_bytes(m.peak_allocated_bytes), format_duration(static_cast<double>(m.peak_at_ns)),
      where, format_bytes(m.at_start_bytes), format_bytes(m.at_end_bytes),
      format_bytes(m.peak_reserved_bytes));
}

std::string memory_holders_words(const RegionMemory& m, size_t top) {
  std::string words;
  for (size_t i = 0; i < m.top_allocators.size() && i < top; ++i) {
    const MemoryHolder& h = m.top_allocators[i];
    words += fmt::format("{}{} {} ({} block{})", words.empty() ? "" : ", ",
                         h.op.empty() ? std::string("no op") : h.op, format_bytes(h.bytes),
                         h.allocations, h.allocations == 1 ? "" : "s");
  }
  if (m.allocated_before_trace_bytes > 0)
    words += fmt::format("{}{} allocated before the trace", words.empty() ? "" : "; ",
                         format_bytes(m.allocated_before_trace_bytes));
  return words.empty() ? words : "held at the peak: " + words;
}

void render_region_memory_text(std::string& out, const TraceAnalysis& t) {
  const RegionSummary* r = typical_with_memory(t);
  if (!r) return;
  auto line = std::back_inserter(out);
  fmt::format_to(line, "\n  {}:\n", heading(t));
  for (const RegionMemory& m : r->memory) {
    fmt::format_to(line, "    device {}: {}\n", m.device, escape_control(memory_peak_words(m)));
    const std::string holders = memory_holders_words(m, kHoldersShown);
    if (!holders.empty()) fmt::format_to(line, "      {}\n", escape_control(holders));
  }
}

void render_region_memory_markdown(std::string& out, const TraceAnalysis& t) {
  const RegionSummary* r = typical_with_memory(t);
  if (!r) return;
  auto line = std::back_inserter(out);
  fmt::format_to(line, "\n{}:\n\n", markdown_cell(heading(t)));
  for (const RegionMemory& m : r->memory) {
    fmt::format_to(line, "- device {}: {}", m.device, markdown_cell(memory_peak_words(m)));
    const std::string holders = memory_holders_words(m, kHoldersShown);
    if (!holders.empty()) fmt::format_to(line, "; {}", markdown_cell(holders));
    out += "\n";
  }
}

}  // namespace attnprof
