#pragma once
// The peer-case inputs (data/peer-cases/*.csv: job_id,submit_s,gpus,duration_s) as job lists, read
// without the trace module so these tests do not wait on it.

#include <string>
#include <vector>

#include "core/job.h"
#include "core/symbol.h"

namespace boreas::testing {

struct JobList {
  SymbolTable symbols;
  std::vector<JobSpec> jobs;
};

// Fails the calling test (gtest ASSERT) on a malformed file; returns an empty list then.
JobList read_peer_case(const std::string& path);

}  // namespace boreas::testing
