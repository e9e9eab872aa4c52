// explain_change (attnprof/trace_diff.h): the fewest rows of a view that cover most of a change.

#include <algorithm>
#include <cmath>

#include "attnprof/trace_diff.h"

namespace attnprof {

namespace {

// Past this many rows an explanation names no one thing: the view that cannot reach the share
// with them gives the rows that cover most.
constexpr size_t kMaxExplainingRows = 10;

struct Candidate {
  std::vector<const DiffRow*> rows;
  double covered_ns = 0;  // the rows' deltas, the total's way
  bool reached = false;
};

Candidate candidate(const std::vector<DiffRow>& view, double total_delta_ns) {
  const double way = total_delta_ns < 0 ? -1 : 1;
  std::vector<const DiffRow*> moving;
  for (const DiffRow& row : view)
    if (row.delta_ns * way > 0) moving.push_back(&row);
  std::stable_sort(moving.begin(), moving.end(), [way](const DiffRow* x, const DiffRow* y) {
    return x->delta_ns * way > y->delta_ns * way;
  });
  Candidate c;
  const double goal = kExplainedShare * std::fabs(total_delta_ns);
  for (const DiffRow* row : moving) {
    if (c.rows.size() == kMaxExplainingRows) break;
    c.rows.push_back(row);
    c.covered_ns += row->delta_ns * way;
    if (c.covered_ns >= goal) {
      c.reached = true;
      break;
    }
  }
  return c;
}

// Whether x explains better than y: reaching the share beats not; then fewer rows; then more
// covered.
bool better(const Candidate& x, const Candidate& y) {
  if (x.reached != y.reached) return x.reached;
  if (x.reached && x.rows.size() != y.rows.size()) return x.rows.size() < y.rows.size();
  return x.covered_ns > y.covered_ns;
}

}  // namespace

Explanation explain_change(
    const std::vector<std::pair<ExplainedBy, const std::vector<DiffRow>*>>& views,
    double total_a_ns, double total_b_ns, bool total_changed) {
  Explanation e;
  e.total_a_ns = total_a_ns;
  e.total_b_ns = total_b_ns;
  e.total_delta_ns = total_b_ns - total_a_ns;
  e.total_changed = total_changed;
  if (e.total_delta_ns == 0) return e;
  std::optional<Candidate> best;
  for (const auto& [view, rows] : views) {
    Candidate c = candidate(*rows, e.total_delta_ns);
    if (c.rows.empty()) continue;
    if (!best || better(c, *best)) {
      best = std::move(c);
      e.view = view;
    }
  }
  if (!best) return e;
  for (const DiffRow* row : best->rows) e.rows.push_back(*row);
  e.covered_pct = 100.0 * best->covered_ns / std::fabs(e.total_delta_ns);
  return e;
}

}  // namespace attnprof
