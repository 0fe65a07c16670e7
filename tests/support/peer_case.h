#pragma once
// The peer-case inputs (data/peer-cases/*.csv: job_id,submit_s,gpus,duration_s), read through the
// trace module's auto-detection like `boreas sim` does.

#include <string>

#include "trace/trace.h"

namespace boreas::testing {

using JobList = trace::Trace;

// Fails the calling test (gtest EXPECT) when the file cannot be read; returns an empty list then.
JobList read_peer_case(const std::string& path);

}  // namespace boreas::testing
