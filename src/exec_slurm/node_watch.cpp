#include "exec_slurm/node_watch.h"

#include <chrono>
#include <optional>
#include <unordered_map>

namespace boreas::exec_slurm {

namespace {

// The rule for one node: b = Boreas's view of it (drained, and by whom), s = Slurm's view.
std::optional<DrainChange> change_for(const server::NodeView& b, const slurm::SlurmNode& s) {
  const bool marked = s.reason.rfind("boreas:", 0) == 0;  // drained in Slurm by this watcher
  if (marked) {
    return b.drained ? std::nullopt : std::optional<DrainChange>({b.name, false, true});
  }
  if (!s.in_service()) {
    return b.drained ? std::nullopt : std::optional<DrainChange>({b.name, true, false});
  }
  if (!b.drained) {
    return std::nullopt;
  }
  // Slurm has it in service: a drain of ours (stored, so also one made before a restart) ends;
  // an operator's drain is carried into Slurm.
  return b.drained_by_executor ? DrainChange{b.name, false, false} : DrainChange{b.name, true, true};
}

}  // namespace

std::vector<DrainChange> drain_changes(const NodeMap& map, const std::vector<slurm::SlurmNode>& slurm_nodes,
                                       const std::vector<server::NodeView>& boreas_nodes) {
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
    if (auto c = change_for(b, *s->second)) {
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
  for (const DrainChange& c : drain_changes(map_, *nodes, controller_.nodes())) {
    const std::string& slurm_name = map_.at(c.node).name;
    if (!c.in_slurm) {
      (void)controller_.set_drained("slurm", c.node, c.drained, server::DrainOrigin::kExecutor);
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
