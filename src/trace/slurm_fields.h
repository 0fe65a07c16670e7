#pragma once
// Slurm's own value syntaxes: durations ("1-02:03:04") and TRES lists ("cpu=8,gres/gpu:a100=4").

#include <optional>
#include <string_view>

#include "core/job.h"
#include "core/time.h"
#include "trace/text.h"

namespace boreas::trace {

// "MM", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM", "D-HH:MM:SS" (Slurm's time formats).
std::optional<Duration> parse_slurm_duration(std::string_view s);
// Sets gpus (gres/gpu=N), gpu_types (gres/gpu:TYPE=N, '|'-joined), cpu_milli (cpu=N) and
// memory_mib (mem=N with K/M/G/T suffix; M when none).
std::optional<RowError> read_tres(std::string_view tres, std::string_view field, JobSpec& job,
                                  SymbolTable& symbols);

}  // namespace boreas::trace
