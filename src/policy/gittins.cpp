#include "policy/gittins.h"

#include <algorithm>

namespace boreas::policy {

void GittinsTable::add(int64_t service) {
  pending_.push_back(service);
}

bool GittinsTable::refresh() {
  if (pending_.empty() || (!sorted_.empty() && pending_.size() * 16 < sorted_.size())) {
    return false;
  }
  std::sort(pending_.begin(), pending_.end());
  std::vector<int64_t> merged(sorted_.size() + pending_.size());
  std::merge(sorted_.begin(), sorted_.end(), pending_.begin(), pending_.end(), merged.begin());
  sorted_ = std::move(merged);
  pending_.clear();
  prefix_.assign(sorted_.size() + 1, 0.0);
  for (size_t i = 0; i < sorted_.size(); ++i) {
    prefix_[i + 1] = prefix_[i] + static_cast<double>(sorted_[i]);
  }
  return true;
}

double GittinsTable::index(int64_t attained, int64_t delta) {
  const auto lo = std::upper_bound(sorted_.begin(), sorted_.end(), attained) - sorted_.begin();
  const int64_t cap = attained + delta;
  const auto hi = std::upper_bound(sorted_.begin(), sorted_.end(), cap) - sorted_.begin();
  const auto n = static_cast<int64_t>(sorted_.size());
  if (lo >= n) {
    return 0;
  }
  const double finishing = static_cast<double>(hi - lo);
  const double service = (prefix_[hi] - prefix_[lo]) - static_cast<double>(attained) * finishing +
                         static_cast<double>(delta) * static_cast<double>(n - hi);
  return service > 0 ? finishing / service : 0;
}

}  // namespace boreas::policy
