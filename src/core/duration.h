#pragma once
// Durations as people type them, one parser for the CLI, the API and the trace readers.
// Slurm's formats (sbatch --time, sacct Elapsed/Timelimit): "MM", "MM:SS", "HH:MM:SS", "D-HH",
// "D-HH:MM", "D-HH:MM:SS"; a bare number means minutes, as in sbatch. Also a number with one
// unit ("30s", "30m", "2h", "1d") and "UNLIMITED"/"INFINITE" (any case) for no limit.

#include <string>
#include <string_view>

#include "core/status.h"
#include "core/time.h"

namespace boreas {

// The largest duration accepted: 100,000 days (Slurm's own limit is lower).
inline constexpr int64_t kMaxDurationSeconds = int64_t{100'000} * 86'400;

// Duration::infinite() for UNLIMITED. A fraction of a second after the last colon field
// ("00:00:01.250", as sacct prints) is dropped: whole seconds. Errors quote the text and list the
// formats; callers prefix the field (e.g. "--time: ").
Result<Duration> parse_duration(std::string_view text);

// squeue's TIME form: "M:SS" under an hour, "H:MM:SS" under a day, else "D-HH:MM:SS";
// "UNLIMITED" for Duration::infinite(); negative durations show as "0:00".
std::string format_slurm_duration(Duration d);

}  // namespace boreas
