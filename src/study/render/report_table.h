#pragma once
// The report's tables, as text cells, shared by its HTML and Markdown: for a bench run the study's
// table per point (the columns of the bench's own summary.md), for plain traces the medians of
// each trace's regions; each row with its findings, the notes of the table.

#include <string>
#include <vector>

#include "study/analysis/report_data.h"

namespace attnprof {

struct ReportNote {
  std::string id;  // "hidden-copy", ...
  std::string summary;
  std::string suggestion;
};

struct ReportTable {
  std::string heading;  // the problem, for a bench run; empty for traces
  bool focus = false;   // the table of the point the timelines show
  std::vector<std::string> header;
  std::vector<bool> numeric;          // per column: aligned right
  std::vector<bool> kernel_names;     // per column: cells that are kernel names
  std::vector<bool> statuses;         // per column: cells that are the variant's status
  std::vector<std::string> variants;  // per row
  std::vector<std::vector<std::string>> rows;
  std::vector<std::vector<ReportNote>> notes;  // per row
};

std::vector<ReportTable> report_tables(const ReportData& data);
// The backward study's tables (ReportData::backward), each row's notes the findings of its
// forward regions and then, marked "in the backward:", of its backward ones; none without it.
std::vector<ReportTable> backward_tables(const ReportData& data);

// A study beside the run (ReportData::beside): a table per point, as the run's.
std::vector<ReportTable> beside_tables(const ReportBeside& beside);
// Its notes on how columns are measured that the run's own do not have (the K/V bandwidth of a
// memory-bound point, a seed of its own).
std::vector<std::string> methods_beside(const ReportData& data, const ReportBeside& beside);

// "NVIDIA H200 (132 SMs, sm_90, 139.8 GiB), torch 2.11.0, CUDA 13.0, cuDNN 9.19.0" for a bench
// run; the traces' devices otherwise; empty when neither says.
std::string environment_line(const ReportData& data);

// Whether a finding points at something to fix (a copy, an upcast, ...) rather than describing
// how a kernel is built (persistent, launched with cuLaunchKernelEx).
bool is_actionable_finding(const std::string& id);

}  // namespace attnprof
