#pragma once
// Slurm GRES strings as sinfo/squeue print them:
//   "gpu:h100:8"                    a node's GPUs (name:type:count; type optional)
//   "gpu:h100:8(S:0-1)"             with socket affinity
//   "gpu:h100:2(IDX:0-1)"           a job's or node's GPUs in use, with their indexes
//   "gpu:h100:4(IDX:0-3),gpu:a100:0(IDX:N/A)"   several entries

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace boreas::slurm {

struct Gres {
  std::string name;  // "gpu"
  std::string type;  // "h100"; empty when untyped
  uint32_t count = 0;
  std::vector<uint32_t> indexes;  // from "(IDX:...)"; empty when absent or N/A
};

Result<std::vector<Gres>> parse_gres_list(std::string_view text);

// How many GPUs (entries named "gpu") they hold in all.
uint32_t gpu_count(const std::vector<Gres>& gres);

}  // namespace boreas::slurm
