#pragma once
// "job N": how the state's error messages name a job (its state id). Private to src/state.

#include <string>

#include "core/ids.h"

namespace boreas::state {

inline std::string job_name(JobId job) { return "job " + std::to_string(job.value()); }

}  // namespace boreas::state
