#pragma once
// The `node_state` table (migration 4): nodes taken out of scheduling, and by whom, so a drain
// survives a restart and the executor's node watcher resumes only the nodes it drained itself.

#include <string>
#include <vector>

#include "core/status.h"
#include "server/store/store.h"

namespace boreas::server {

struct DrainedNodeRow {
  std::string name;
  std::string drained_by;  // "operator" or "executor"
};

// Sets NODE drained (by DRAINED_BY) or back in service (drained_by is then cleared).
SqlStatement node_drain_row(const std::string& node, bool drained, const std::string& drained_by);
// The nodes stored as drained.
Result<std::vector<DrainedNodeRow>> read_drained_nodes(Store& store);

}  // namespace boreas::server
