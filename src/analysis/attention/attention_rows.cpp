#include "analysis/attention/attention_rows.h"

#include "analysis/op_arguments.h"

namespace attnprof {

namespace {

enum class RowsLayout { kNone, kProduct, kSdpa };

RowsLayout rows_layout(std::string_view op) {
  if (op == "aten::matmul" || op == "aten::bmm") return RowsLayout::kProduct;
  if (op.starts_with("aten::scaled_dot_product_attention") ||
      op.starts_with("aten::_scaled_dot_product_"))
    return RowsLayout::kSdpa;
  return RowsLayout::kNone;
}

}  // namespace

std::optional<AttentionRows> attention_rows(std::string_view op,
                                            const std::vector<OpArgument>& args) {
  const RowsLayout layout = rows_layout(op);
  if (layout == RowsLayout::kNone || args.size() < 2) return std::nullopt;
  for (size_t i = 0; i < 2; ++i) {
    if (args[i].dims.size() < 2) return std::nullopt;
    for (int64_t size : args[i].dims)
      if (size <= 0) return std::nullopt;
  }
  const std::vector<int64_t>& first = args[0].dims;
  const std::vector<int64_t>& second = args[1].dims;
  AttentionRows rows;
  rows.query_rows = first[first.size() - 2];
  rows.keys = layout == RowsLayout::kProduct ? second.back() : second[second.size() - 2];
  return rows;
}

std::optional<AttentionRows> attention_rows(const Trace& trace, HostEventId op) {
  const std::optional<std::vector<OpArgument>> args = op_arguments(trace, op);
  if (!args) return std::nullopt;
  return attention_rows(trace.strings.view(trace.host_events[op].name), *args);
}

}  // namespace attnprof
