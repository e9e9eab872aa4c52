#include "study_result.h"

namespace attnprof::bench {

bool has_failures(const StudyReport& report) {
  for (const StudyPoint& point : report.points) {
    for (const VariantRow& row : point.rows) {
      const VariantStatus status = row.measurement.status;
      if (status == VariantStatus::kFailed || status == VariantStatus::kError) return true;
    }
  }
  return false;
}

bool expectations_hold(const StudyReport& report) {
  for (const StudyPoint& point : report.points)
    for (const VariantRow& row : point.rows)
      if (row.forward)
        for (const ExpectationResult& e : row.forward->expectations)
          if (!e.holds) return false;
  return true;
}

}  // namespace attnprof::bench
