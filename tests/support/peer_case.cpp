#include "support/peer_case.h"

#include <gtest/gtest.h>

namespace boreas::testing {

JobList read_peer_case(const std::string& path) {
  auto trace = trace::read_trace_file(path, trace::ReadOptions{});
  EXPECT_TRUE(trace.is_ok()) << (trace.is_ok() ? "" : trace.status().message());
  return trace.is_ok() ? std::move(*trace) : JobList{};
}

}  // namespace boreas::testing
