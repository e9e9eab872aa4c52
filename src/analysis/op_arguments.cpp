#include "analysis/op_arguments.h"

#include "model/op_input_text.h"

namespace attnprof {

std::optional<StringId> op_inputs_text(const Trace& trace, HostEventId op) {
  if (op.index() >= trace.host_events.size()) return std::nullopt;
  const HostEvent& e = trace.host_events[op];
  if (e.kind != HostKind::kCpuOp || e.inputs() == StringPool::kEmpty) return std::nullopt;
  return e.inputs();
}

std::optional<std::vector<OpArgument>> op_arguments_of_text(std::string_view inputs_text) {
  const std::optional<OpInputFields> fields = split_op_input_fields(inputs_text);
  if (!fields || fields->dims.empty()) return std::nullopt;
  auto dims = parse_input_dims(fields->dims);
  if (!dims) return std::nullopt;
  // Types and values are optional: older PyTorch recorded only the shapes.
  std::vector<std::string> types, values;
  if (auto parsed = parse_string_list(fields->types)) types = std::move(*parsed);
  if (auto parsed = parse_string_list(fields->concrete)) values = std::move(*parsed);
  std::vector<OpArgument> args(dims->size());
  for (size_t i = 0; i < args.size(); ++i) {
    args[i].dims = std::move((*dims)[i]);
    if (i < types.size()) args[i].type = std::move(types[i]);
    if (i < values.size()) args[i].concrete = std::move(values[i]);
  }
  return args;
}

std::optional<std::vector<OpArgument>> op_arguments(const Trace& trace, HostEventId op) {
  const std::optional<StringId> text = op_inputs_text(trace, op);
  if (!text) return std::nullopt;
  return op_arguments_of_text(trace.op_input_texts.view(*text));
}

}  // namespace attnprof
