#pragma once
// Node state both ways, once per watch interval:
//  - a node Slurm has down, drained or not responding is drained in Boreas (its jobs come back
//    through the executor when Slurm requeues them), and resumed when Slurm has it back, if this
//    watcher drained it;
//  - a node drained in Boreas (`boreas drain`) while Slurm has it in service is drained in Slurm
//    with the reason "boreas: drained in Boreas", and resumed in Slurm when Boreas resumes it.
// The reason marks Slurm drains as Boreas's own; Boreas drains made because of Slurm are stored as
// the executor's (server::DrainOrigin), so both survive a restart: a node Slurm gives back after
// one is resumed, not taken for an operator's drain.

#include <condition_variable>
#include <mutex>
#include <thread>

#include "exec_slurm/node_map.h"
#include "server/driver/controller.h"
#include "slurm/client.h"

namespace boreas::exec_slurm {

inline constexpr const char* kBoreasDrainReason = "boreas: drained in Boreas";

struct DrainChange {
  std::string node;  // spec name
  bool drained = false;
  bool in_slurm = false;  // the change is for Slurm (else for Boreas)
  bool operator==(const DrainChange&) const = default;
};

// One pass of the rule, on Slurm's nodes and Boreas's (which says who drained each).
std::vector<DrainChange> drain_changes(const NodeMap& map, const std::vector<slurm::SlurmNode>& slurm_nodes,
                                       const std::vector<server::NodeView>& boreas_nodes);

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
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace boreas::exec_slurm
