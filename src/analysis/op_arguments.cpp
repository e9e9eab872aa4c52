#include "analysis/op_arguments.h"

#include <algorithm>
#include <tuple>

#include "model/op_input_text.h"

namespace attnprof {

std::optional<StringId> op_inputs_text(const Trace& trace, HostEventId op) {
  if (op.index() >= trace.host_events.size()) return std::nullopt;
  const HostEvent& e = trace.host_events[op];
  if (e.kind != HostKind::kCpuOp) return std::nullopt;
  const auto key = std::tuple(e.pid, e.tid, e.start_ns, e.name);
  auto it = std::lower_bound(trace.op_inputs.begin(), trace.op_inputs.end(), key,
                             [](const OpInputsRecord& r, const auto& k) { return r.key() < k; });
  if (it == trace.op_inputs.end() || it->key() != key) return std::nullopt;
  return it->inputs;
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
