#pragma once
// `boreas jobs` as squeue prints it: named columns (JOBID NAME USER QUEUE STATE TIME GPUS
// NODELIST(REASON) by default), a wide set, or a list the user names with -o/--format.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace boreas::cli {

struct JobColumn {
  std::string key;     // as -o names it: id, name, user, ...
  std::string header;  // as the table shows it: JOBID, NAME, USER, ...
};

// "default", "wide" or a comma-separated list of column keys (any case); an unknown key is an
// error listing the known ones.
Result<std::vector<JobColumn>> job_columns(const std::string& format);

// One row of text, terminal-safe; `now_us` (wall clock) is the end of a running job's TIME.
std::vector<std::string> job_cells(const nlohmann::json& job, const std::vector<JobColumn>& columns, int64_t now_us);

// Active states (pending, running, preempted) unless `all`; an unknown --state is an error
// listing the valid ones. `states` is a comma-separated list, empty = no filter.
Result<std::vector<std::string>> states_to_show(const std::string& states, bool all);

}  // namespace boreas::cli
