#include "core/queue.h"

namespace boreas {

std::optional<QueueId> QueueTree::find(std::string_view name) const {
  for (size_t i = 0; i < queues.size(); ++i) {
    if (queues[i].name == name) {
      return QueueId(static_cast<uint32_t>(i));
    }
  }
  return std::nullopt;
}

}  // namespace boreas
