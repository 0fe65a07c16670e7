#pragma once
// The per-job drill-down's data: for each job on the page, per policy, its submit, runs (start,
// end, nodes, why each ended), wait and the policy's last reason for the wait. Large runs keep
// the jobs that waited longest (plus any asked for), so the page stays small.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

#include "report/run_data.h"

namespace boreas::report {

// The ids to show: every job when there are at most `max_jobs`, else the `max_jobs` that waited
// longest under any policy (ties: lower id) and every id in `wanted`; ascending.
std::vector<int64_t> drilldown_ids(const std::vector<PolicyRun>& runs, size_t max_jobs,
                                   const std::vector<int64_t>& wanted);

// {"total", "shown", "selection", "default_job", "strings", "policies": [{"policy", "jobs", "runs"}]}
// (docs/report.md). `baseline` picks the default job: the one that waited longest under it.
nlohmann::json job_drilldown(const std::vector<PolicyRun>& runs, size_t baseline, size_t max_jobs,
                             const std::vector<int64_t>& wanted);

}  // namespace boreas::report
