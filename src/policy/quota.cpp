#include "policy/quota.h"

#include <algorithm>

#include "state/cluster_view.h"

namespace boreas::policy {

Demand demand_of(std::span<const GpuId> gpus, const state::ClusterView& view) {
  Demand d;
  demand_into(gpus, view, d);
  return d;
}

void demand_into(std::span<const GpuId> gpus, const state::ClusterView& view, Demand& d) {
  d.clear();
  const auto& nodes = view.cluster().nodes;
  for (GpuId g : gpus) {
    const auto type = nodes[view.state().node_of(g).value()].gpu_type;
    if (!type) {
      continue;
    }
    if (d.empty() || d.back().type != *type) {
      d.push_back(TypeCount{*type, 0});
    }
    d.back().gpus += 1;
  }
}

QuotaBook::QuotaBook(const QueueTree* tree, const Cluster& cluster)
    : cluster_(cluster), capacity_(cluster.catalog.size(), 0) {
  for (const Node& n : cluster.nodes) {
    if (n.gpu_type) {
      capacity_[n.gpu_type->value()] += n.gpu_count;
    }
  }
  if (tree == nullptr) {
    return;
  }
  for (size_t i = 0; i < tree->queues.size(); ++i) {
    const auto& parent = tree->parent[i];
    add_node(&tree->queues[i], parent ? static_cast<int32_t>(parent->value()) : -1);
  }
}

void QuotaBook::add_node(const QueueSpec* spec, int32_t parent) {
  QueueNode node;
  node.parent = parent;
  std::vector<GpuQuota> quotas;
  if (spec != nullptr) {
    node.name = spec->name;
    node.weight = spec->weight;
    quotas = spec->quotas;
  }
  // Specific types first so that they win over '*'; the implicit rest comes last.
  std::stable_sort(quotas.begin(), quotas.end(),
                   [](const GpuQuota& a, const GpuQuota& b) { return a.gpu_type != "*" && b.gpu_type == "*"; });
  quotas.push_back(GpuQuota{"*", 0, std::nullopt, std::nullopt});
  node.entry_of.assign(capacity_.size(), -1);
  for (const GpuQuota& q : quotas) {
    Entry e{q.gpu_type, q, {}, 0};
    const auto id = q.gpu_type == "*" ? std::nullopt : cluster_.catalog.find(q.gpu_type);
    for (uint32_t t = 0; t < capacity_.size(); ++t) {
      const bool covers = q.gpu_type == "*" || (id && id->value() == t);
      if (covers && node.entry_of[t] < 0 && capacity_[t] > 0) {
        node.entry_of[t] = static_cast<int32_t>(node.entries.size());
        e.types.push_back(t);
        e.capacity += capacity_[t];
      }
    }
    node.entries.push_back(std::move(e));
  }
  node.used.assign(node.entries.size(), 0);
  nodes_.push_back(std::move(node));
}

uint32_t QuotaBook::queue_of(Symbol queue, const SymbolTable& symbols) {
  const auto it = by_symbol_.find(queue.index());
  if (it != by_symbol_.end()) {
    return it->second;
  }
  const std::string_view name = symbols.view(queue);
  uint32_t index = static_cast<uint32_t>(nodes_.size());
  const auto found = std::find_if(nodes_.begin(), nodes_.end(), [&](const QueueNode& n) { return n.name == name; });
  if (found != nodes_.end()) {
    index = static_cast<uint32_t>(found - nodes_.begin());
  } else {
    add_node(nullptr, -1);
    nodes_.back().name = std::string(name);
  }
  by_symbol_.emplace(queue.index(), index);
  return index;
}

void QuotaBook::clear_usage() {
  ++version_;
  for (QueueNode& n : nodes_) {
    std::fill(n.used.begin(), n.used.end(), 0);
  }
}

// The entry covering `type`: its own, else the implicit rest (the last).
size_t QuotaBook::entry_index(const QueueNode& n, GpuTypeId type) {
  const int32_t e = n.entry_of[type.value()];
  return e < 0 ? n.entries.size() - 1 : static_cast<size_t>(e);
}

std::vector<uint64_t> QuotaBook::entry_demand(const QueueNode& n, std::span<const TypeCount> demand) const {
  std::vector<uint64_t> out(n.entries.size(), 0);
  for (const TypeCount& tc : demand) {
    out[entry_index(n, tc.type)] += tc.gpus;
  }
  return out;
}

// Calls fn(entry, GPUs) for each entry of n the demand needs GPUs of, in entry order, until fn
// returns true; returns whether it did. A gang of one GPU type (nearly all) allocates nothing.
template <typename Fn>
bool QuotaBook::any_entry(const QueueNode& n, std::span<const TypeCount> demand, Fn&& fn) const {
  if (demand.size() == 1) {
    return demand[0].gpus > 0 && fn(entry_index(n, demand[0].type), uint64_t{demand[0].gpus});
  }
  const auto d = entry_demand(n, demand);
  for (size_t e = 0; e < d.size(); ++e) {
    if (d[e] > 0 && fn(e, d[e])) {
      return true;
    }
  }
  return false;
}

void QuotaBook::add(uint32_t queue, std::span<const TypeCount> demand, int32_t sign) {
  ++version_;
  for (int32_t q = static_cast<int32_t>(queue); q >= 0; q = nodes_[q].parent) {
    QueueNode& n = nodes_[q];
    any_entry(n, demand, [&](size_t e, uint64_t d) {
      n.used[e] = sign > 0 ? n.used[e] + d : n.used[e] - std::min(n.used[e], d);
      return false;
    });
  }
}

bool QuotaBook::within_guarantee(uint32_t queue, std::span<const TypeCount> demand) const {
  for (int32_t q = static_cast<int32_t>(queue); q >= 0; q = nodes_[q].parent) {
    const QueueNode& n = nodes_[q];
    if (any_entry(n, demand, [&](size_t e, uint64_t d) { return n.used[e] + d > n.entries[e].quota.guaranteed; })) {
      return false;
    }
  }
  return true;
}

bool QuotaBook::owed(uint32_t queue, std::span<const TypeCount> demand, const QuotaBook& covered) const {
  // The queue's own borrowed GPUs of the demand's types stay: reclaim never takes them for it.
  const QueueNode& own = nodes_[queue];
  auto borrowed = [&](size_t e) {
    const uint64_t used = own.used[e];
    return static_cast<uint32_t>(used - std::min(used, covered.nodes_[queue].used[e]));
  };
  TypeCount one;
  Demand many;
  std::span<const TypeCount> with_own;
  if (demand.size() == 1) {
    one = TypeCount{demand[0].type, demand[0].gpus + borrowed(entry_index(own, demand[0].type))};
    with_own = std::span<const TypeCount>(&one, 1);
  } else {
    many.assign(demand.begin(), demand.end());
    std::vector<bool> counted(own.entries.size(), false);
    for (TypeCount& tc : many) {
      const size_t e = entry_index(own, tc.type);
      tc.gpus += counted[e] ? 0 : borrowed(e);
      counted[e] = true;
    }
    with_own = many;
  }
  for (int32_t q = static_cast<int32_t>(queue); q >= 0; q = nodes_[q].parent) {
    const QueueNode& n = nodes_[q];
    const QueueNode& c = covered.nodes_[q];
    if (any_entry(n, with_own, [&](size_t e, uint64_t d) { return c.used[e] + d > n.entries[e].quota.guaranteed; })) {
      return false;
    }
  }
  return true;
}

QuotaBlock QuotaBook::block(uint32_t queue, size_t entry, uint64_t need) const {
  const QueueNode& n = nodes_[queue];
  const GpuQuota& q = n.entries[entry].quota;
  QuotaBlock b{queue, n.entries[entry].gpu_type, need, n.used[entry], q.guaranteed, std::nullopt, false};
  if (q.borrow_limit) {
    b.ceiling = uint64_t{q.guaranteed} + *q.borrow_limit;
  }
  return b;
}

std::optional<QuotaBlock> QuotaBook::check_ceiling(uint32_t queue, std::span<const TypeCount> demand) const {
  for (int32_t q = static_cast<int32_t>(queue); q >= 0; q = nodes_[q].parent) {
    const QueueNode& n = nodes_[q];
    std::optional<QuotaBlock> hit;
    any_entry(n, demand, [&](size_t e, uint64_t d) {
      const auto& limit = n.entries[e].quota.borrow_limit;
      if (limit && n.used[e] + d > uint64_t{n.entries[e].quota.guaranteed} + *limit) {
        hit = block(static_cast<uint32_t>(q), e, n.used[e] + d);
      }
      return hit.has_value();
    });
    if (hit) {
      return hit;
    }
  }
  return std::nullopt;
}

bool QuotaBook::on_path(uint32_t queue, uint32_t start) const {
  for (int32_t q = static_cast<int32_t>(start); q >= 0; q = nodes_[q].parent) {
    if (static_cast<uint32_t>(q) == queue) {
      return true;
    }
  }
  return false;
}

std::optional<QuotaBlock> QuotaBook::check_lending(uint32_t queue, const std::vector<uint64_t>& free_after) const {
  for (uint32_t s = 0; s < nodes_.size(); ++s) {
    const QueueNode& n = nodes_[s];
    if (on_path(s, queue)) {
      continue;
    }
    for (size_t e = 0; e < n.entries.size(); ++e) {
      const GpuQuota& q = n.entries[e].quota;
      if (!q.lend_limit || *q.lend_limit >= q.guaranteed) {
        continue;
      }
      const uint64_t kept = q.guaranteed - *q.lend_limit;  // never lent
      const uint64_t unused_kept = kept > n.used[e] ? kept - n.used[e] : 0;
      uint64_t free = 0;
      for (uint32_t t : n.entries[e].types) {
        free += free_after[t];
      }
      if (free < unused_kept) {
        QuotaBlock b = block(s, e, unused_kept);
        b.have = free;
        b.lending = true;
        return b;
      }
    }
  }
  return std::nullopt;
}

bool QuotaBook::borrowing(uint32_t victim, std::span<const TypeCount> victim_gpus, uint32_t claimant) const {
  for (int32_t q = static_cast<int32_t>(victim); q >= 0; q = nodes_[q].parent) {
    if (on_path(static_cast<uint32_t>(q), claimant)) {
      return false;  // from here up the claimant shares the victim's quotas
    }
    const QueueNode& n = nodes_[q];
    if (any_entry(n, victim_gpus, [&](size_t e, uint64_t) { return n.used[e] > n.entries[e].quota.guaranteed; })) {
      return true;
    }
  }
  return false;
}

// The same walk as borrowing(), over every entry rather than those a demand needs: a superset.
bool QuotaBook::borrowing_any(uint32_t victim, uint32_t claimant) const {
  for (int32_t q = static_cast<int32_t>(victim); q >= 0; q = nodes_[q].parent) {
    if (on_path(static_cast<uint32_t>(q), claimant)) {
      return false;
    }
    const QueueNode& n = nodes_[q];
    for (size_t e = 0; e < n.entries.size(); ++e) {
      if (n.used[e] > n.entries[e].quota.guaranteed) {
        return true;
      }
    }
  }
  return false;
}

uint64_t QuotaBook::unused_guarantees() const {
  uint64_t total = 0;
  for (const QueueNode& n : nodes_) {
    if (n.parent >= 0) {
      continue;
    }
    for (size_t e = 0; e < n.entries.size(); ++e) {
      const uint64_t g = n.entries[e].quota.guaranteed;
      total += g > n.used[e] ? g - n.used[e] : 0;
    }
  }
  return total;
}

uint64_t QuotaBook::max_gpus(uint32_t queue, GpuTypeId type) const {
  uint64_t most = capacity_[type.value()];
  for (int32_t q = static_cast<int32_t>(queue); q >= 0; q = nodes_[q].parent) {
    const QueueNode& n = nodes_[q];
    const int32_t e = n.entry_of[type.value()];
    const GpuQuota& quota = n.entries[e < 0 ? n.entries.size() - 1 : static_cast<size_t>(e)].quota;
    if (quota.borrow_limit) {
      most = std::min<uint64_t>(most, uint64_t{quota.guaranteed} + *quota.borrow_limit);
    }
  }
  return most;
}

uint64_t QuotaBook::max_guaranteed(uint32_t queue, GpuTypeId type) const {
  uint64_t most = capacity_[type.value()];
  for (int32_t q = static_cast<int32_t>(queue); q >= 0; q = nodes_[q].parent) {
    most = std::min(most, guaranteed(static_cast<uint32_t>(q), type));
  }
  return most;
}

uint64_t QuotaBook::unguaranteed(GpuTypeId type) const {
  uint64_t claimed = 0;
  for (const QueueNode& n : nodes_) {
    const int32_t e = n.entry_of[type.value()];
    claimed += n.parent < 0 && e >= 0 ? n.entries[e].quota.guaranteed : 0;
  }
  const uint64_t cap = capacity_[type.value()];
  return cap > claimed ? cap - claimed : 0;
}

uint64_t QuotaBook::guaranteed(uint32_t queue, GpuTypeId type) const {
  const QueueNode& n = nodes_[queue];
  const int32_t e = n.entry_of[type.value()];
  return e < 0 ? 0 : n.entries[e].quota.guaranteed;
}

uint64_t QuotaBook::usage(uint32_t queue, GpuTypeId type) const {
  const QueueNode& n = nodes_[queue];
  const int32_t e = n.entry_of[type.value()];
  return e < 0 ? 0 : n.used[e];
}

std::optional<GpuTypeId> QuotaBook::first_type(uint32_t queue) const {
  for (const Entry& e : nodes_[queue].entries) {
    if (!e.types.empty()) {
      return GpuTypeId(e.types.front());
    }
  }
  return std::nullopt;
}

}  // namespace boreas::policy
