#pragma once
// What the serving engines record per request and per token, for the summary.

#include <cstdint>
#include <vector>

#include "serving/prefix_cache.h"
#include "serving/request_trace.h"

namespace boreas::serving {

// `count` token gaps of `seconds` each (one iteration gives every decoding request the same gap).
struct GapSample {
  double seconds = 0;
  int64_t count = 0;
};

struct Outcome {
  int64_t first_token_us = -1;  // absolute; -1 until the first token
  int64_t done_us = -1;         // absolute; -1 until the last token
};

struct Recorder {
  explicit Recorder(const RequestTrace& t) : trace(t), outcomes(t.requests.size()) {}

  const RequestTrace& trace;
  std::vector<Outcome> outcomes;  // by request index
  std::vector<GapSample> tbt;     // gaps between two tokens of a request, with how many had that gap
  PrefixStats prefix;
  int64_t last_done_us = 0;
  double e2e_sum_s = 0;  // over finished requests (the predictive autoscaler's latency)
  int64_t finished = 0;

  void first_token(uint32_t req, int64_t now) { outcomes[req].first_token_us = now; }
  void token_gaps(int64_t gap_us, int64_t count) {
    if (count > 0) {
      tbt.push_back({static_cast<double>(gap_us) / 1e6, count});
    }
  }
  void done(uint32_t req, int64_t now) {
    outcomes[req].done_us = now;
    last_done_us = now > last_done_us ? now : last_done_us;
    e2e_sum_s += static_cast<double>(now - trace.requests[req].arrival_us) / 1e6;
    ++finished;
  }
};

}  // namespace boreas::serving
