#pragma once
// The report's headline: each policy against a named baseline ("boreas vs fifo: production JCT
// 3.4× better, utilization −0.4 points, …"), computed from the summaries, with short notes that
// explain a lower utilization or a longer makespan from what the runs recorded.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "core/status.h"
#include "report/run_data.h"

namespace boreas::report {

// The baseline's index: `requested` when given (an unknown name is an error listing the names),
// else "fifo" when present, else the first run.
Result<size_t> pick_baseline(const std::vector<PolicyRun>& runs, const std::string& requested);

// {"baseline": name, "arms": [{"policy", "text", "items": [{key, label, text, better}], "notes": [...]}]}
// with one arm per run other than the baseline.
nlohmann::json headline(const std::vector<PolicyRun>& runs, size_t baseline);

// "3.4× better", "12% worse", "unchanged": how `arm` compares with `base` when lower is better.
std::string lower_is_better_change(double base, double arm);

}  // namespace boreas::report
