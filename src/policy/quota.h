#pragma once
// The quota part: hierarchical per-GPU-type guarantees with borrowing and lending
// (docs/multitenancy.md). A QuotaBook knows the queue tree and, per round, each queue's usage
// (its subtree's GPUs in use) per quota entry; it answers "may this gang start here?" and
// "is this running gang on borrowed capacity?". It reads no clock and owns no jobs.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ids.h"
#include "core/queue.h"
#include "core/symbol.h"
#include "core/topology.h"

namespace boreas::state {
class ClusterView;
}

namespace boreas::policy {

// GPUs of one type in a gang (a gang usually has one type).
struct TypeCount {
  GpuTypeId type;
  uint32_t gpus = 0;
};
using Demand = std::vector<TypeCount>;

// The GPUs of `gpus` counted by type, in their order (one entry per run of a type).
Demand demand_of(std::span<const GpuId> gpus, const state::ClusterView& view);
// The same into `out` (emptied first), whose capacity is kept: no allocation once it had room.
void demand_into(std::span<const GpuId> gpus, const state::ClusterView& view, Demand& out);

// Why a gang may not start under the quotas: which queue and entry, what it needed and had.
struct QuotaBlock {
  uint32_t queue = 0;     // QuotaBook queue index
  std::string gpu_type;   // the entry's type ("*" for all types it covers)
  uint64_t need = 0;      // its usage if the gang started
  uint64_t have = 0;      // its usage now
  uint64_t guaranteed = 0;
  std::optional<uint64_t> ceiling;  // guaranteed + borrow limit; nullopt = unlimited
  bool lending = false;             // blocked by another queue's lending limit, not a ceiling
};

class QuotaBook {
 public:
  // `tree` may be null: every queue is then an implicit root with no guarantee and no limit.
  QuotaBook(const QueueTree* tree, const Cluster& cluster);

  // The book's index of a job's queue; queues missing from the tree become implicit roots.
  uint32_t queue_of(Symbol queue, const SymbolTable& symbols);
  const std::string& name(uint32_t queue) const { return nodes_[queue].name; }
  size_t queue_count() const { return nodes_.size(); }
  double weight(uint32_t queue) const { return nodes_[queue].weight; }
  bool is_root(uint32_t queue) const { return nodes_[queue].parent < 0; }

  void clear_usage();
  // Changes with every change of usage, so a caller can keep answers while it stays the same.
  uint64_t version() const { return version_; }
  void add(uint32_t queue, std::span<const TypeCount> demand, int32_t sign);  // +1 start, −1 stop

  // Every queue on the path to the root stays within its guarantee with the gang added.
  bool within_guarantee(uint32_t queue, std::span<const TypeCount> demand) const;
  // The same test once every borrowed job outside the queue's own subtree is reclaimed, which a
  // guarantee may always do: on each queue x of the path, covered(x) + the queue's own borrowed
  // GPUs + the gang ≤ G(x), where `covered` holds the usage of the jobs started inside guarantees.
  // At the queue itself this is used + gang ≤ G; above it a sibling's borrowing no longer hides
  // the queue's guarantee (a three-level tree whose team a sibling project filled).
  bool owed(uint32_t queue, std::span<const TypeCount> demand, const QuotaBook& covered) const;
  // Ceilings (guarantee + borrow limit) on the path; the first one exceeded.
  std::optional<QuotaBlock> check_ceiling(uint32_t queue, std::span<const TypeCount> demand) const;
  // Lending limits of queues beside the path: GPUs they may not lend must stay free.
  // `free_after[t]` = free GPUs of type t if the gang started.
  std::optional<QuotaBlock> check_lending(uint32_t queue, const std::vector<uint64_t>& free_after) const;
  // Some queue on `victim`'s path but not on `claimant`'s uses more than its guarantee of a
  // type the victim holds: evicting the victim takes back borrowed capacity only.
  bool borrowing(uint32_t victim, std::span<const TypeCount> victim_gpus, uint32_t claimant) const;
  // borrowing() of any type: false means no gang of `victim` is borrowing from `claimant`'s view,
  // so a victim search may pass the whole queue without reading its running jobs.
  bool borrowing_any(uint32_t victim, uint32_t claimant) const;
  // Unused guarantees of root queues, per GPU type (GPUs that must stay reclaimable).
  uint64_t unused_guarantees() const;
  // The most GPUs of `type` a gang of this queue could ever get (ceilings and capacity).
  uint64_t max_gpus(uint32_t queue, GpuTypeId type) const;
  // The most GPUs of `type` a gang of this queue could get inside its guarantee (the smallest
  // guarantee on its path).
  uint64_t max_guaranteed(uint32_t queue, GpuTypeId type) const;
  // GPUs of `type` no root queue's guarantee can claim: capacity − the guarantees that may cover
  // the type (a '*' guarantee counts against every type it covers, so this is safe on mixed clusters).
  uint64_t unguaranteed(GpuTypeId type) const;

  // For audits: guarantee and usage of the entry covering `type`.
  uint64_t guaranteed(uint32_t queue, GpuTypeId type) const;
  uint64_t usage(uint32_t queue, GpuTypeId type) const;
  std::optional<GpuTypeId> first_type(uint32_t queue) const;
  uint64_t capacity(GpuTypeId type) const { return capacity_[type.value()]; }

 private:
  struct Entry {
    std::string gpu_type;
    GpuQuota quota;
    std::vector<uint32_t> types;  // covered GPU type ids present in the cluster
    uint64_t capacity = 0;        // cluster GPUs of those types
  };
  struct QueueNode {
    std::string name;
    int32_t parent = -1;
    double weight = 1.0;
    std::vector<Entry> entries;     // the last one is the implicit rest (0 guaranteed, no limit)
    std::vector<int32_t> entry_of;  // by GPU type id; -1 = type absent from the cluster
    std::vector<uint64_t> used;     // by entry
  };

  void add_node(const QueueSpec* spec, int32_t parent);
  static size_t entry_index(const QueueNode& n, GpuTypeId type);
  std::vector<uint64_t> entry_demand(const QueueNode& n, std::span<const TypeCount> demand) const;
  template <typename Fn>
  bool any_entry(const QueueNode& n, std::span<const TypeCount> demand, Fn&& fn) const;
  bool on_path(uint32_t queue, uint32_t start) const;
  QuotaBlock block(uint32_t queue, size_t entry, uint64_t need) const;

  const Cluster& cluster_;
  std::vector<uint64_t> capacity_;  // by GPU type id
  std::vector<QueueNode> nodes_;
  std::unordered_map<uint32_t, uint32_t> by_symbol_;  // queue symbol index -> node
  uint64_t version_ = 0;
};

}  // namespace boreas::policy
