#pragma once
// The report's headline (analysis/headline.h) in words, shared by its HTML and Markdown: the
// renderers only add their markup around these plain-text pieces.

#include <optional>
#include <string>
#include <vector>

#include "analysis/headline.h"
#include "study/analysis/report_data.h"

namespace attnprof {

struct HeadlineWords {
  // "sdpa-cudnn" and what follows it: "is the fastest: 101.3 µs GPU median per call, 22.3×
  // faster than naive (2.26 ms)"
  std::string fastest;
  // A run made --from-trace whose trace's step was timed: what holds that step and what a switch
  // saves of it, said before any kernel (projection_words.h); empty otherwise.
  std::string step;
  std::string lead;
  std::string as_fast;  // "As fast (within 10 %): sdpa-auto (cudnn)."; empty when none
  struct Slow {
    std::string variant;   // "sdpa-math"
    std::string how_slow;  // "50.1× slower (5.08 ms)"
    std::string reason;    // "the FP32 upcast: its GEMMs run in FP32, 1.84 ms per region"
  };
  std::vector<Slow> slow;
};

// `time_label` names what the times are: "GPU median per call", "median GPU busy per region".
HeadlineWords headline_words(const Headline& h, const std::string& time_label);

// The headline of a report's data in words, with the label its times carry; none when no
// variant has a time.
std::optional<HeadlineWords> report_headline_words(const ReportData& data);
// The backward study's headline, its times the GPU median of forward and backward per call.
std::optional<HeadlineWords> report_headline_words(const ReportBackward& backward);
// A study beside the run: its middle point's, from its summary.json alone.
std::optional<HeadlineWords> report_headline_words(const ReportBeside& beside);

}  // namespace attnprof
