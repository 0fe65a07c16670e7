#include "exec_slurm/node_watch.h"

#include <chrono>
#include <optional>
#include <unordered_map>

namespace boreas::exec_slurm {

namespace {

// The rule for one node: b = drained in Boreas, s = Slurm's view of it.
std::optional<DrainChange> change_for(const std::string& name, bool b, const slurm::SlurmNode& s,
                                      std::set<std::string>* ours) {
  const bool marked = s.reason.rfind("boreas:", 0) == 0;  // drained in Slurm by this watcher
  if (marked) {
    return b ? std::nullopt : std::optional<DrainChange>({name, false, true});
  }
  if (!s.in_service()) {
    if (b) {
      return std::nullopt;
    }
    ours->insert(name);
    return DrainChange{name, true, false};
  }
  if (!b) {
    ours->erase(name);
    return std::nullopt;
  }
  if (ours->erase(name) > 0) {
    return DrainChange{name, false, false};
  }
  return DrainChange{name, true, true};
}

}  // namespace

std::vector<DrainChange> drain_changes(const NodeMap& map, const std::vector<slurm::SlurmNode>& slurm_nodes,
                                       const std::vector<server::NodeView>& boreas_nodes,
                                       std::set<std::string>* ours) {
  std::unordered_map<std::string, const slurm::SlurmNode*> by_name;
  for (const auto& n : slurm_nodes) {
    by_name[n.name] = &n;
  }
  std::vector<DrainChange> changes;
  for (const auto& b : boreas_nodes) {
    const auto m = map.find(b.name);
    const auto s = m == map.end() ? by_name.end() : by_name.find(m->second.name);
    if (s == by_name.end()) {
      continue;
    }
    if (auto c = change_for(b.name, b.drained, *s->second, ours)) {
      changes.push_back(*c);
    }
  }
  return changes;
}

NodeWatcher::NodeWatcher(server::Controller& controller, slurm::ClientOptions client, NodeMap map,
                         Duration every)
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
    const std::string& slurm_name = map_.at(c.node).name;
    if (!c.in_slurm) {
      (void)controller_.set_drained("slurm", c.node, c.drained);
    } else if (c.drained) {
      (void)client_.drain(slurm_name, kBoreasDrainReason);
    } else {
      (void)client_.resume(slurm_name);
    }
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
