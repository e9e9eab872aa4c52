#pragma once
// The events `attnprof annotate` writes into a trace's traceEvents (Chrome trace format, which
// Perfetto UI and Kineto's readers take):
//   - one instant per finding ("attnprof: hidden-copy"), at the typical region's start on its
//     process, with the summary, evidence and suggestion as args;
//   - the typical region: an instant at its start ("attnprof: typical region") and a slice over
//     it on a track of its own ("attnprof"), so that it stands out in the timeline;
//   - each hidden copy: a flow from the op whose clone made it to the copy on its GPU stream,
//     and an instant on the copy ("attnprof: hidden copy").
// All of category "attnprof".

#include <string>

#include "analysis/trace_annotations.h"

namespace attnprof {

// The events as JSON objects joined by ",\n", ready to go between other elements of an array;
// empty when there is nothing to add.
std::string render_annotation_events(const TraceAnnotations& annotations);

// How many events render_annotation_events writes.
size_t annotation_event_count(const TraceAnnotations& annotations);

}  // namespace attnprof
