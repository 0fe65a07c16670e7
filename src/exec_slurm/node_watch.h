#pragma once
// Slurm's node states into Boreas: a node Slurm has down, drained or not responding is drained in
// Boreas within one watch interval (its jobs come back through the executor when Slurm requeues
// them), and resumed when Slurm has it back, if this watcher was the one that drained it. A node
// an operator drained in Boreas stays drained. After a restart the watcher does not know which
// drains were its own, so a node Slurm returns then stays drained until `boreas resume`.

#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "exec_slurm/node_map.h"
#include "server/controller.h"
#include "slurm/client.h"

namespace boreas::exec_slurm {

struct DrainChange {
  std::string node;  // spec name
  bool drained = false;
  bool operator==(const DrainChange&) const = default;
};

// One pass of the rule: `ours` holds the nodes this watcher drained and is updated.
std::vector<DrainChange> drain_changes(const NodeMap& map, const std::vector<slurm::SlurmNode>& slurm_nodes,
                                       const std::vector<server::NodeView>& boreas_nodes,
                                       std::set<std::string>* ours);

class NodeWatcher {
 public:
  NodeWatcher(server::Controller& controller, slurm::ClientOptions client, NodeMap map, Duration every);
  ~NodeWatcher();
  NodeWatcher(const NodeWatcher&) = delete;
  NodeWatcher& operator=(const NodeWatcher&) = delete;

  void start();
  void stop();
  void sync_once();  // one pass, on the caller's thread

 private:
  server::Controller& controller_;
  slurm::Client client_;
  NodeMap map_;
  Duration every_;
  std::set<std::string> ours_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace boreas::exec_slurm
