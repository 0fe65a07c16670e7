#include "exec_slurm/node_watch.h"

#include <chrono>
#include <unordered_map>

namespace boreas::exec_slurm {

std::vector<DrainChange> drain_changes(const NodeMap& map, const std::vector<slurm::SlurmNode>& slurm_nodes,
                                       const std::vector<server::NodeView>& boreas_nodes,
                                       std::set<std::string>* ours) {
  std::unordered_map<std::string, bool> in_service;  // by Slurm name
  for (const auto& n : slurm_nodes) {
    in_service[n.name] = n.in_service();
  }
  std::vector<DrainChange> changes;
  for (const auto& b : boreas_nodes) {
    const auto m = map.find(b.name);
    const auto s = m == map.end() ? in_service.end() : in_service.find(m->second.name);
    if (s == in_service.end()) {
      continue;
    }
    if (!s->second && !b.drained) {
      changes.push_back({b.name, true});
      ours->insert(b.name);
    } else if (s->second && b.drained && ours->count(b.name) > 0) {
      changes.push_back({b.name, false});
      ours->erase(b.name);
    } else if (!b.drained) {
      ours->erase(b.name);  // resumed in Boreas by someone else while Slurm had it back
    }
  }
  return changes;
}

NodeWatcher::NodeWatcher(server::Controller& controller, slurm::ClientOptions client, NodeMap map, Duration every)
    : controller_(controller), client_(std::move(client)), map_(std::move(map)), every_(every) {}

NodeWatcher::~NodeWatcher() {
  stop();
}

void NodeWatcher::sync_once() {
  auto nodes = client_.nodes();
  if (!nodes.is_ok()) {
    return;  // Slurm unreachable: nothing is concluded, the next pass tries again
  }
  for (const DrainChange& c : drain_changes(map_, *nodes, controller_.nodes(), &ours_)) {
    (void)controller_.set_drained("slurm", c.node, c.drained);
  }
}

void NodeWatcher::start() {
  thread_ = std::thread([this] {
    std::unique_lock lock(mu_);
    while (!stopping_) {
      lock.unlock();
      sync_once();
      lock.lock();
      wake_.wait_for(lock, std::chrono::microseconds(every_.us()), [this] { return stopping_; });
    }
  });
}

void NodeWatcher::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

}  // namespace boreas::exec_slurm
