#pragma once
// "job N": how the state's error messages name a job (its state id). Private to src/state.

#include <string>

#include "core/ids.h"
#include "core/status.h"

namespace boreas::state {

inline std::string job_name(JobId job) { return "job " + std::to_string(job.value()); }

// A check's status with "job N: " in front when it failed; an ok one is passed on with nothing
// formatted (the transitions check every start and stop).
inline Status with_job_context(JobId job, Status status) {
  return status.is_ok() ? status : status.with_context(job_name(job) + ": ");
}

}  // namespace boreas::state
