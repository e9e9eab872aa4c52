#pragma once
// The model studies beside the op study (`attnprof report RUN_DIR examples/models/*`): per model,
// its trace's step, attention's part of it as the run measured it, the backend that ran and what
// switching would save (study/analysis/trace_projection.h), in the page, Markdown, text and
// headline. Words only: every number is the projection's.

#include <string>
#include <vector>

#include "study/analysis/report_data.h"

namespace attnprof {

struct ModelWords {
  std::string name;       // "llama-train-sdpa"
  std::string wall;       // "45.57 ms": the step's critical path (its wall time); "-" untimed
  std::string bound_by;   // "CPU", "GPU compute", ...; "-" untimed
  std::string step;       // "1.67 ms" (the typical step's GPU time)
  std::string region;     // "ProfilerStep#2, the typical of 2"
  std::string attention;  // "78.8 µs" (the measured calls' time in the trace)
  std::string share;      // "4.7 %" of the step; "-" without a step time
  std::string backends;   // "cudnn" ("unfused, cudnn" when several)
  // "switch to sdpa-cudnn: -541.2 µs (5.7 %)" (of the step's critical path where it was timed,
  // else of its GPU time), or "keep cudnn: no switch saves 5 % of the step"
  std::string switch_to;
  std::vector<std::string> lines;  // the projection per call and for the step
};

// Each model's words, in the order given.
std::vector<ModelWords> model_words(const ReportData& data);

// The page's section (id "models"): a table with a row per model, then each model's projection
// under its own heading (id "model-NAME") with a link to its own page; nothing without models.
void write_models_html(std::string& out, const ReportData& data);
std::string model_anchor(const ReportModel& model);
void write_models_markdown(std::string& out, const ReportData& data);
void write_models_text(std::string& out, const ReportData& data);
// One line per model for the headline format: "NAME: step 1.67 ms, attention (cudnn) 4.7 %, ...".
std::vector<std::pair<std::string, std::string>> model_headlines(const ReportData& data);

}  // namespace attnprof
