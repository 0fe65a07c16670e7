#pragma once
// The validation runs of docs/models.md: each model against the FACTS rows it can be checked
// with, plus what the communication model predicts for a gang split across racks and the
// checkpoint-interval sweep. Pure computation; `boreas models check` prints it.

#include <cstdint>
#include <string>
#include <vector>

#include "models/checkpoint.h"

namespace boreas::models {

struct ValidationRow {
  std::string check;  // what is computed
  double model = 0;   // the model's value
  std::string unit;
  std::string reference;  // the FACTS value it is compared with, or "prediction"
  std::string source;     // FACTS section and tag
};

struct SplitRow {
  std::string placement;
  double comm_ms = 0;
  double busbw_gbps = 0;
  double efficiency = 0;  // placement efficiency against the packed placement
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  std::vector<SplitRow> split;    // a 32-GPU H100 gang placed four ways
  std::vector<SweepPoint> sweep;  // checkpoint intervals, M = 3.1 h, δ = 300 s, R = 600 s
  double young_s = 0;
  double daly_s = 0;
};

ValidationReport run_validation(uint64_t seed);

}  // namespace boreas::models
