#include "reader/ncu_csv.h"

#include <array>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "io/byte_stream.h"

namespace attnprof {

namespace {

// Where each metric lands. The FLOP counts are sums of several metrics (below), so they are not
// here.
struct FieldMetric {
  const char* metric;
  std::optional<double> KernelCounters::*field;
  // ncu reports it with its launch statistics, and refuses it in --metrics.
  bool reported_unasked = false;
};

constexpr std::array kFieldMetrics = {
    FieldMetric{"gpu__time_duration.sum", &KernelCounters::duration_ns},
    FieldMetric{"sm__warps_active.avg.pct_of_peak_sustained_active",
                &KernelCounters::achieved_occupancy_pct},
    FieldMetric{"sm__maximum_warps_per_active_cycle_pct",
                &KernelCounters::theoretical_occupancy_pct, true},
    FieldMetric{"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
                &KernelCounters::tensor_pipe_pct},
    FieldMetric{"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
                &KernelCounters::fp32_pipe_pct},
    FieldMetric{"dram__bytes_read.sum", &KernelCounters::dram_read_bytes},
    FieldMetric{"dram__bytes_write.sum", &KernelCounters::dram_write_bytes},
    FieldMetric{"dram__throughput.avg.pct_of_peak_sustained_elapsed",
                &KernelCounters::dram_throughput_pct},
    FieldMetric{"lts__t_sector_hit_rate.pct", &KernelCounters::l2_hit_rate_pct},
    FieldMetric{"sm__throughput.avg.pct_of_peak_sustained_elapsed",
                &KernelCounters::sm_throughput_pct},
    FieldMetric{"sm__cycles_elapsed.avg.per_second", &KernelCounters::sm_clock_hz},
};

// Tensor-core operations by input type (each multiply-add counts 2, as the useful FLOPs do).
constexpr std::array kTensorFlopMetrics = {
    "sm__ops_path_tensor_src_bf16_dst_fp32.sum",
    "sm__ops_path_tensor_src_fp16.sum",
    "sm__ops_path_tensor_src_tf32_dst_fp32.sum",
};

// FP32 instructions executed by threads: an FMA is 2 operations, an add or a multiply 1.
struct Fp32Metric {
  const char* metric;
  double flop_per_instruction;
};
constexpr std::array kFp32FlopMetrics = {
    Fp32Metric{"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 2},
    Fp32Metric{"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 1},
    Fp32Metric{"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 1},
};

// The cells of one CSV record (RFC 4180: quoted cells, "" inside quotes, CRLF or LF), and where the
// next one starts. A quoted cell may span lines, so records are cut here, not by lines.
struct Record {
  std::vector<std::string> cells;
  size_t next = 0;
  int lines = 1;  // how many lines it spans
};

Record next_record(std::string_view text, size_t pos) {
  Record record;
  std::string cell;
  bool quoted = false;
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (quoted) {
      if (c == '"' && pos + 1 < text.size() && text[pos + 1] == '"') {
        cell += '"';
        ++pos;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++record.lines;
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.cells.push_back(std::move(cell));
      cell.clear();
    } else if (c == '\n') {
      ++pos;
      break;
    } else if (c != '\r') {
      cell += c;
    }
  }
  record.cells.push_back(std::move(cell));
  record.next = pos;
  return record;
}

// ncu's scaled units back to the base ones (bytes, nanoseconds, hertz); ncu scales by 1000.
std::optional<double> unit_scale(std::string_view unit) {
  static const std::map<std::string_view, double> scales = {
      {"", 1},         {"%", 1},         {"inst", 1},     {"byte", 1},      {"Kbyte", 1e3},
      {"Mbyte", 1e6},  {"Gbyte", 1e9},   {"Tbyte", 1e12}, {"ns", 1},        {"nsecond", 1},
      {"us", 1e3},     {"usecond", 1e3}, {"ms", 1e6},     {"msecond", 1e6}, {"s", 1e9},
      {"second", 1e9}, {"hz", 1},        {"Khz", 1e3},    {"Mhz", 1e6},     {"Ghz", 1e9},
      {"cycle", 1},    {"warp", 1},
  };
  auto it = scales.find(unit);
  if (it == scales.end()) return std::nullopt;
  return it->second;
}

constexpr double kLargestCounter = 1e18;
constexpr double kSmallestCounter = 1e-12;

// "50,354,944" -> 50354944; "n/a" and "" -> unknown.
Result<std::optional<double>> parse_number(std::string_view cell) {
  if (cell.empty() || cell == "n/a") return std::optional<double>{};
  std::string digits;
  digits.reserve(cell.size());
  for (char c : cell)
    if (c != ',') digits += c;
  double value = 0;
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return Error{};
  return std::optional<double>{value};
}

bool is_ncu_log_line(std::string_view text, size_t pos) {
  return text.compare(pos, 2, "==") == 0;
}

// Where each column the reader uses sits, and its unit's scale.
struct Columns {
  std::map<std::string, size_t> index;
  std::vector<double> scale;  // per column; 1 until a units row says otherwise

  std::optional<size_t> find(const std::string& name) const {
    auto it = index.find(name);
    if (it == index.end()) return std::nullopt;
    return it->second;
  }
};

class CsvParser {
 public:
  CsvParser(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  Result<std::vector<KernelCounters>> parse() {
    std::vector<KernelCounters> kernels;
    bool header_seen = false, units_possible = false;
    while (pos_ < text_.size()) {
      const int line = line_;
      if (is_ncu_log_line(text_, pos_)) {
        skip_line();
        continue;
      }
      Record record = next_record(text_, pos_);
      pos_ = record.next;
      line_ += record.lines;
      if (record.cells.size() == 1 && record.cells[0].empty()) continue;  // a blank line
      if (!header_seen) {
        ATTNPROF_RETURN_IF_ERROR(read_header(record.cells, line));
        header_seen = units_possible = true;
        continue;
      }
      if (record.cells.size() != columns_.scale.size()) {
        return make_error(
            ErrorKind::kMalformed,
            "{}: line {}: {} cells, but the header has {}: not the CSV that `ncu --csv --page "
            "raw` writes, or a truncated one",
            source_, line, record.cells.size(), columns_.scale.size());
      }
      if (units_possible && record.cells[id_column_].empty()) {
        ATTNPROF_RETURN_IF_ERROR(read_units(record.cells, line));
        units_possible = false;
        continue;
      }
      units_possible = false;
      Result<KernelCounters> kernel = read_kernel(record.cells, line);
      if (!kernel.ok()) return kernel.take_error();
      kernels.push_back(std::move(*kernel));
    }
    if (!header_seen)
      return make_error(ErrorKind::kMalformed,
                        "{}: empty: no header row (ncu writes one, then a row per kernel)",
                        source_);
    return kernels;
  }

 private:
  void skip_line() {
    const size_t end = text_.find('\n', pos_);
    pos_ = end == std::string_view::npos ? text_.size() : end + 1;
    ++line_;
  }

  Status read_header(const std::vector<std::string>& cells, int line) {
    for (size_t i = 0; i < cells.size(); ++i) columns_.index.emplace(cells[i], i);
    columns_.scale.assign(cells.size(), 1.0);
    const auto id = columns_.find("ID");
    const auto name = columns_.find("Kernel Name");
    if (!id || !name) {
      return make_error(
          ErrorKind::kMalformed,
          "{}: line {}: no \"ID\" and \"Kernel Name\" columns: not a CSV of Nsight Compute's raw "
          "page (export it with `ncu --import REPORT --csv --page raw --print-units base`)",
          source_, line);
    }
    id_column_ = *id;
    name_column_ = *name;
    grid_column_ = columns_.find("Grid Size");
    block_column_ = columns_.find("Block Size");
    return Status::success();
  }

  Status read_units(const std::vector<std::string>& cells, int line) {
    for (const auto& [name, i] : columns_.index) {
      if (!is_read(name)) continue;
      const auto scale = unit_scale(cells[i]);
      if (!scale) {
        return make_error(
            ErrorKind::kMalformed,
            "{}: line {}: column {}: unknown unit \"{}\"; export with --print-units base", source_,
            line, name, cells[i]);
      }
      columns_.scale[i] = *scale;
    }
    return Status::success();
  }

  static bool is_read(const std::string& name) {
    for (const auto& m : kFieldMetrics)
      if (name == m.metric) return true;
    for (const char* m : kTensorFlopMetrics)
      if (name == m) return true;
    for (const auto& m : kFp32FlopMetrics)
      if (name == m.metric) return true;
    return false;
  }

  // The value of `metric` in this row, scaled to its base unit; unknown when the CSV has no such
  // column or the cell says n/a.
  Result<std::optional<double>> value(const std::vector<std::string>& cells, const char* metric,
                                      int line) const {
    const auto i = columns_.find(metric);
    if (!i) return std::optional<double>{};
    Result<std::optional<double>> number = parse_number(cells[*i]);
    if (!number.ok()) {
      return make_error(ErrorKind::kMalformed, "{}: line {}: column {}: \"{}\" is not a number",
                        source_, line, metric, cells[*i]);
    }
    if (*number) **number *= columns_.scale[*i];
    // Counters count bytes, cycles, instructions or time: none is negative, and none comes near
    // 1e18 of its base unit (an exabyte, 30 years in nanoseconds). "1e300 Tbyte" became inf.
    // A value other than 0 is at least 1e-12: a rate divides by a duration, and 1e-300 ns made
    // an infinite TFLOP/s.
    if (*number && (!(**number >= 0 && **number <= kLargestCounter) ||
                    (**number != 0 && **number < kSmallestCounter)))
      return make_error(ErrorKind::kMalformed,
                        "{}: line {}: column {}: \"{}\" is out of range (0, or 1e-12 to 1e18 once "
                        "scaled); check the export",
                        source_, line, metric, cells[*i]);
    return number;
  }

  Result<KernelCounters> read_kernel(const std::vector<std::string>& cells, int line) const {
    KernelCounters k;
    k.name = cells[name_column_];
    if (grid_column_) k.grid = cells[*grid_column_];
    if (block_column_) k.block = cells[*block_column_];
    for (const auto& m : kFieldMetrics) {
      auto v = value(cells, m.metric, line);
      if (!v.ok()) return v.take_error();
      k.*m.field = *v;
    }
    for (const char* metric : kTensorFlopMetrics) {
      auto v = value(cells, metric, line);
      if (!v.ok()) return v.take_error();
      if (*v) k.tensor_flop = k.tensor_flop.value_or(0) + **v;
    }
    for (const auto& m : kFp32FlopMetrics) {
      auto v = value(cells, m.metric, line);
      if (!v.ok()) return v.take_error();
      if (*v) k.fp32_flop = k.fp32_flop.value_or(0) + **v * m.flop_per_instruction;
    }
    return k;
  }

  std::string_view text_;
  const std::string& source_;
  size_t pos_ = 0;
  int line_ = 1;
  Columns columns_;
  size_t id_column_ = 0, name_column_ = 0;
  std::optional<size_t> grid_column_, block_column_;
};

}  // namespace

const std::vector<std::string>& ncu_metric_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& m : kFieldMetrics)
      if (!m.reported_unasked) out.emplace_back(m.metric);
    for (const char* m : kTensorFlopMetrics) out.emplace_back(m);
    for (const auto& m : kFp32FlopMetrics) out.emplace_back(m.metric);
    return out;
  }();
  return names;
}

Result<std::vector<KernelCounters>> parse_ncu_csv(std::string_view text,
                                                  const std::string& source) {
  return CsvParser(text, source).parse();
}

Result<std::vector<KernelCounters>> read_ncu_csv(const std::string& path, uint64_t max_bytes) {
  Limits limits;
  limits.max_decompressed_bytes = max_bytes;
  auto stream = ByteStream::open(path, limits);
  if (!stream.ok()) return stream.take_error();
  std::string text;
  std::vector<char> buffer(1 << 16);
  for (;;) {
    Result<size_t> n = (*stream)->read(buffer.data(), buffer.size());
    if (!n.ok()) return n.take_error();
    if (*n == 0) break;
    text.append(buffer.data(), *n);
  }
  return parse_ncu_csv(text, path);
}

}  // namespace attnprof
