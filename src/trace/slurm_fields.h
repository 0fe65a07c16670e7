#pragma once
// Slurm's TRES lists ("cpu=8,gres/gpu:a100=4"); its durations are core/duration.h's.

#include <optional>
#include <string_view>

#include "core/duration.h"
#include "core/job.h"
#include "core/time.h"
#include "trace/text.h"

namespace boreas::trace {

// Sets gpus (gres/gpu=N), gpu_types (gres/gpu:TYPE=N, '|'-joined), cpu_milli (cpu=N) and
// memory_mib (mem=N with a K/M/G/T suffix, decimals allowed; M when none: core/size_units.h).
std::optional<RowError> read_tres(std::string_view tres, std::string_view field, JobSpec& job,
                                  SymbolTable& symbols);

}  // namespace boreas::trace
