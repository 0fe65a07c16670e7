#pragma once
// Submits every job of `jobs` whose submit time is `now`: a test's round-by-round replay without the
// engine. The first failure is returned, naming the job.

#include <span>
#include <string>

#include "core/job.h"
#include "core/status.h"
#include "state/cluster_state.h"

namespace boreas::testing {

inline Status submit_arrivals(state::ClusterState& s, std::span<const JobSpec> jobs, Time now) {
  for (uint32_t j = 0; j < s.job_count(); ++j) {
    if (jobs[j].submit == now) {
      BOREAS_RETURN_IF_ERROR(s.submit(JobId(j), now).with_context("job " + std::to_string(j) + ": "));
    }
  }
  return Status::ok();
}

}  // namespace boreas::testing
