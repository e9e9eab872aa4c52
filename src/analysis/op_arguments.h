#pragma once
// The recorded arguments of one op (record_shapes=True), parsed from the raw text the reader kept
// (HostEvent::inputs): the shapes, types and scalar values that op_cost.h counts from.

#include <optional>
#include <vector>

#include "analysis/op_cost.h"
#include "model/trace.h"

namespace attnprof {

// The arguments of cpu_op `op`, one per input the trace lists; none when the trace recorded no
// shapes for it (no record_shapes, an op that is no cpu_op, a thread named by text, or fields
// that are no JSON arrays).
std::optional<std::vector<OpArgument>> op_arguments(const Trace& trace, HostEventId op);

// The same, from the recorded text itself (Trace::op_input_texts): ops that repeat a shape share
// one text, so a caller can parse each text once.
std::optional<std::vector<OpArgument>> op_arguments_of_text(std::string_view inputs_text);

// The text id (of Trace::op_input_texts) of `op`'s recorded inputs; none without any.
std::optional<StringId> op_inputs_text(const Trace& trace, HostEventId op);

}  // namespace attnprof
