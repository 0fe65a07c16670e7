#pragma once
// Slurm's compressed host lists: "n[1-3,7],gpu-a[01-02]" <-> node names.

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace boreas::slurm {

// "n[1-2],m5" -> {n1, n2, m5}. Zero padding is kept ("a[01-02]" -> a01, a02). Empty -> {}.
Result<std::vector<std::string>> expand_hostlist(std::string_view list);

// "n1,n4": the plain form every Slurm command accepts.
std::string join_hostlist(const std::vector<std::string>& names);

// "0-1,4" -> {0, 1, 4} (GPU index lists such as "IDX:0-1,4").
Result<std::vector<uint32_t>> expand_ranges(std::string_view ranges);

}  // namespace boreas::slurm
