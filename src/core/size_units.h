#pragma once
// Memory sizes as Slurm takes them, one parser for the API (`memory`, `gpu_memory`) and the trace
// readers (sacct's TRES `mem=`): a number with an optional binary unit K, M, G or T in any case,
// optionally followed by "B" or "iB" ("4G", "4GiB", "512m", "2048K"); a bare number is MiB, as
// in sbatch --mem. The result is whole MiB, rounded up (Slurm rounds "1K" up to 1 MiB).

#include <cstdint>
#include <string_view>

#include "core/status.h"

namespace boreas {

// The largest size accepted, whatever the caller's own range: 1 EiB.
inline constexpr int64_t kMaxSizeMib = int64_t{1} << 40;

// kWhole: an integer, as sbatch --mem takes it. kDecimal: also a fraction ("187.50G"), as sacct
// prints TRES sizes; at most 9 decimals.
enum class SizeNumber : uint8_t { kWhole, kDecimal };

// Errors quote the text and say what is wrong; callers prefix the field ("$.memory: ").
Result<int64_t> parse_size_mib(std::string_view text, SizeNumber number = SizeNumber::kWhole);

}  // namespace boreas
