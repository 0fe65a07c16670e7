#include "serving/router.h"

namespace boreas::serving {

size_t Router::shortest(std::span<const size_t> candidates,
                        std::span<const Replica* const> replicas) const {
  size_t best = candidates[0];
  for (const size_t c : candidates) {
    if (replicas[c]->inflight() < replicas[best]->inflight()) {
      best = c;
    }
  }
  return best;
}

size_t Router::pick(std::span<const size_t> candidates, std::span<const Replica* const> replicas,
                    std::span<const uint64_t> blocks) {
  switch (kind_) {
    case RouterKind::kRoundRobin:
      return candidates[next_++ % candidates.size()];
    case RouterKind::kShortestQueue:
      return shortest(candidates, replicas);
    case RouterKind::kPrefix:
      break;
  }
  // Longest cached prefix wins among replicas whose queue is within kPrefixLoadSlack of the
  // shortest; among equals (e.g. no hit anywhere) the shortest queue. Without the guard every
  // request sharing a popular first block piles onto one replica.
  size_t best = shortest(candidates, replicas);
  const size_t limit = replicas[best]->inflight() + kPrefixLoadSlack;
  size_t best_hit = 0;
  for (const size_t c : candidates) {
    const PrefixCache* cache = replicas[c]->inflight() > limit ? nullptr : replicas[c]->prefix_cache();
    const size_t hit = cache == nullptr ? 0 : cache->peek(blocks);
    if (hit > best_hit) {
      best = c;
      best_hit = hit;
    }
  }
  return best;
}

}  // namespace boreas::serving
