#pragma once
// "Did you mean" suggestions by edit distance.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace boreas::config {

// Levenshtein distance, case-insensitive.
size_t edit_distance(std::string_view a, std::string_view b);

// The closest candidate when it is plausibly a typo (distance <= max(2, len/3)).
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);

// "did you mean 'x'?" or "" when nothing is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// "a, b, c"
std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");

}  // namespace boreas::config
