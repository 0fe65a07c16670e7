#include "policy/placement_topo.h"

#include <algorithm>
#include <array>

#include "models/param_check.h"
#include "policy/duration_estimate.h"
#include "policy/placement_util.h"

namespace boreas::policy {

Status validate(const TopoOptions& o) {
  BOREAS_RETURN_IF_ERROR(models::ParamCheck("topo placement")
                             .at_least("max_wait (s)", o.max_wait.to_seconds(), 0)
                             .in("min_efficiency", o.min_efficiency, 0, 1)
                             .positive("gradient_bytes", o.gradient_bytes)
                             .positive("compute_s", o.compute_s)
                             .in("overlap", o.overlap, 0, 1)
                             .status());
  return models::validate(o.comm);
}

namespace {

enum class Level : uint8_t { kNode, kLeaf, kSpine, kAnywhere };

struct Candidate {
  std::vector<models::NodeGpus> shape;  // GPUs per node; taken from the scratch for the winner only
  double efficiency = 0;
  Level level = Level::kAnywhere;
  uint32_t slack = 0;  // free GPUs the domain keeps: less is a tighter fit
};

// A network domain's allowed nodes with free GPUs for the gang being placed: (node, free), fullest
// first, then by node id; and their free GPUs.
struct Domain {
  std::vector<models::NodeGpus> nodes;
  uint32_t free = 0;
  void clear() {
    nodes.clear();
    free = 0;
  }
  void add(const models::NodeGpus& ng) {
    nodes.push_back(ng);
    free += ng.gpus;
  }
};

// Better = more efficient; then the smaller domain; then the tighter fit (first found on ties).
bool better(const Candidate& a, const Candidate& b) {
  constexpr double kEps = 1e-9;
  if (a.efficiency > b.efficiency + kEps || a.efficiency < b.efficiency - kEps) {
    return a.efficiency > b.efficiency;
  }
  return a.level != b.level ? a.level < b.level : a.slack < b.slack;
}

class TopoPlacement final : public Placement {
 public:
  explicit TopoPlacement(TopoOptions o) : o_(std::move(o)) {}
  std::string_view name() const override { return "topo"; }

  std::optional<std::vector<GpuId>> place(const JobSpec& job, const Scratch& s) override {
    if (job.gpus > s.total_free()) {
      return std::nullopt;
    }
    std::vector<GpuId> out;
    if (auto node = best_fit_node(job, job.gpus, s, types_)) {
      s.take_free_on_node(*node, job.gpus, out);  // one node: the tightest domain there is
      return out;
    }
    index_domains(s.view().cluster());
    ideal_ = models::tightest_placement(job.gpus, node_gpus_, leaf_nodes_);
    ideal_comm_ = {};
    if (o_.shortcuts && spread_waits(job, s)) {
      return std::nullopt;  // what the domain search would decide: every shape left spans nodes
    }
    std::optional<Candidate> best = best_candidate(job, s);
    if (!best || (best->efficiency < o_.min_efficiency && may_wait(job, s.view(), best->efficiency))) {
      return std::nullopt;
    }
    for (const models::NodeGpus& ng : best->shape) {
      s.take_free_on_node(ng.node, ng.gpus, out);
    }
    return out;
  }

 private:
  // Nodes by leaf switch and by spine, and the shape of the tightest placement (built once).
  void index_domains(const Cluster& c) {
    if (!leaves_.empty() || c.nodes.empty()) {
      return;
    }
    for (uint32_t i = 0; i < c.nodes.size(); ++i) {
      const Rack& rack = c.rack_of(c.nodes[i]);
      grow(leaves_, rack.leaf).push_back(NodeId(i));
      grow(spines_, rack.spine).push_back(NodeId(i));
      node_gpus_ = std::max(node_gpus_, c.nodes[i].gpu_count);
      some_without_nvlink_ = some_without_nvlink_ || !c.nodes[i].nvlink;
      leaf_count_ = std::max(leaf_count_, rack.leaf + 1);
    }
    for (const auto& l : leaves_) {
      leaf_nodes_ = std::max(leaf_nodes_, static_cast<uint32_t>(l.size()));
    }
  }

  static std::vector<NodeId>& grow(std::vector<std::vector<NodeId>>& v, uint32_t i) {
    if (v.size() <= i) {
      v.resize(i + 1);
    }
    return v[i];
  }

  std::optional<Candidate> best_candidate(const JobSpec& job, const Scratch& s) {
    read_usable_free(job, s);
    std::optional<Candidate> best;
    auto consider = [&](const Domain& domain, Level level) {
      std::optional<Candidate> c = fill(job, s.view().cluster(), domain, level);
      if (c && (!best || better(*c, *best))) {
        best = std::move(c);
      }
    };
    for (const Domain& leaf : leaf_domains_) {
      consider(leaf, Level::kLeaf);
    }
    if (spines_.size() > 1 || leaves_.size() > 1) {
      for (const Domain& spine : spine_domains_) {
        consider(spine, Level::kSpine);
      }
    }
    if (spines_.size() > 1) {
      consider(all_domain_, Level::kAnywhere);
    }
    return best;
  }

  // Each node's free GPUs the job may use, read once per gang and sorted fullest first (then by
  // node id) once: each domain gets its nodes in that order, as a stable sort of its own nodes
  // (listed by id) would give them. The domains overlap (a node sits in a leaf, a spine and the
  // whole cluster).
  void read_usable_free(const JobSpec& job, const Scratch& s) {
    const auto& view = s.view();
    const Cluster& c = view.cluster();
    const std::vector<GpuTypeId>& allowed = types_.allowed(job, view);
    fullest_.clear();
    for (uint32_t i = 0; i < c.nodes.size(); ++i) {
      const uint32_t f = s.node_free(NodeId(i));
      if (f > 0 && TypeFilter::allows(allowed, c.nodes[i])) {
        fullest_.push_back({NodeId(i), f});
      }
    }
    std::stable_sort(fullest_.begin(), fullest_.end(),
                     [](const models::NodeGpus& a, const models::NodeGpus& b) { return a.gpus > b.gpus; });
    leaf_domains_.resize(leaves_.size());
    spine_domains_.resize(spines_.size());
    for (Domain& d : leaf_domains_) {
      d.clear();
    }
    for (Domain& d : spine_domains_) {
      d.clear();
    }
    all_domain_.clear();
    for (const models::NodeGpus& ng : fullest_) {
      const Rack& rack = c.rack_of(c.nodes[ng.node.value()]);
      leaf_domains_[rack.leaf].add(ng);
      spine_domains_[rack.spine].add(ng);
      all_domain_.add(ng);
    }
  }

  // The gang in one domain, in the shape the comm model rates best. A hierarchical all-reduce is as
  // slow as the node holding the fewest of the gang's GPUs (its NICs carry the largest share), so
  // filling the fullest nodes greedily can leave a 1-GPU tail that costs more than spreading evenly.
  // For each node count k from the fewest that hold the gang up to one GPU per node, the k fullest
  // nodes each take m = min(free of the k-th, gang / k) and the rest goes fullest first; the best
  // rated k wins, the fewest nodes on ties.
  std::optional<Candidate> fill(const JobSpec& job, const Cluster& cluster, const Domain& domain, Level level) {
    if (domain.free < job.gpus) {
      return std::nullopt;
    }
    const std::vector<models::NodeGpus>& nodes = domain.nodes;
    Candidate c;
    c.level = level;
    c.slack = domain.free - job.gpus;
    c.efficiency = -1;
    uint32_t best_k = 0;
    uint32_t prefix = 0;
    // The summary of the k fullest nodes grows with k (models::summarize_placement's leaves and
    // NVLink flag, counted as the nodes are added).
    leaf_seen_.assign(leaf_count_, 0);
    uint32_t leaves = 0;
    bool nvlink = true;
    const auto last = static_cast<uint32_t>(std::min<size_t>(nodes.size(), job.gpus));
    for (uint32_t k = 1; k <= last; ++k) {
      const Node& node = cluster.nodes[nodes[k - 1].node.value()];
      nvlink = nvlink && node.nvlink;
      const uint32_t leaf = cluster.rack_of(node).leaf;
      leaves += leaf_seen_[leaf] == 0 ? 1 : 0;
      leaf_seen_[leaf] = 1;
      prefix += nodes[k - 1].gpus;
      if (prefix < job.gpus) {
        continue;
      }
      balanced_shape(nodes, job.gpus, k, shape_);
      models::PlacementSummary actual;
      actual.gpus_per_node = std::min_element(shape_.begin(), shape_.end(), [](const auto& a, const auto& b) {
                               return a.gpus < b.gpus;
                             })->gpus;
      actual.nodes = k;
      actual.leaves = leaves;
      const double e = efficiency(cluster, actual, nvlink);
      if (e > c.efficiency + 1e-9) {
        c.efficiency = e;
        best_k = k;
      }
    }
    balanced_shape(nodes, job.gpus, best_k, c.shape);
    return c;
  }

  // `gpus` on the k fullest of `nodes` (fullest first; together they hold them): each at least
  // m = min(free of the k-th, gpus / k), the rest to the fullest nodes first.
  static void balanced_shape(const std::vector<models::NodeGpus>& nodes, uint32_t gpus, uint32_t k,
                             std::vector<models::NodeGpus>& shape) {
    const uint32_t m = std::min(nodes[k - 1].gpus, gpus / k);
    shape.clear();
    uint32_t rest = gpus - m * k;
    for (uint32_t i = 0; i < k; ++i) {
      const uint32_t extra = std::min(rest, nodes[i].gpus - m);
      rest -= extra;
      shape.push_back({nodes[i].node, m + extra});
    }
  }

  // Placement efficiency against the tightest shape the gang could have on this cluster
  // (ideal_comm_, set for the gang by place()).
  double efficiency(const Cluster& c, const models::PlacementSummary& actual, bool nvlink) {
    const double t_actual = comm_seconds(c, actual, nvlink);
    std::optional<double>& ideal = ideal_comm_[nvlink ? 1 : 0];
    if (!ideal) {
      ideal = comm_seconds(c, ideal_, nvlink);
    }
    return models::placement_efficiency(o_.compute_s, std::min(*ideal, t_actual), t_actual, o_.overlap);
  }

  double comm_seconds(const Cluster& c, const models::PlacementSummary& pl, bool nvlink) const {
    const models::PlacementLinks links = models::placement_links(c.fabric, nvlink, pl, o_.comm);
    return models::allreduce_seconds(pl, o_.gradient_bytes, links, o_.comm);
  }

  // Whether the gang, which no single node holds now, would wait whatever the domain search found.
  // Every shape fill() can rate then spans k >= 2 nodes, with at most gpus / k of the gang and at
  // most the free GPUs of the k-th fullest usable node on its emptiest node, and 1 to min(k, leaves)
  // leaves; a domain's k fullest nodes hold the gang only if the cluster's k fullest do. So its
  // efficiency is at most the best over those summaries. Below min_efficiency, a gang that would
  // wait at that bound waits at any lower efficiency (may_wait's worth only grows as it falls).
  // The bound over every k and share first (kept per gang size), then the tighter one from the free
  // counts.
  bool spread_waits(const JobSpec& job, const Scratch& s) {
    const std::vector<std::vector<double>>& best = spread_table(s.view().cluster(), job.gpus);
    double bound = 0;
    for (uint32_t k = 2; k < best.size(); ++k) {
      bound = std::max(bound, best[k].back());
    }
    if (bound > 0 && bound < o_.min_efficiency && may_wait(job, s.view(), bound)) {
      return true;
    }
    bound = bound_from_free_counts(job, s, best);
    return bound > 0 && bound < o_.min_efficiency && may_wait(job, s.view(), bound);
  }

  // The bound for this scratch: the usable nodes counted by free GPUs (the free index, the scratch's
  // touched nodes moved to their counts here), walked fullest first. 1 (no bound) when one node
  // holds the gang.
  double bound_from_free_counts(const JobSpec& job, const Scratch& s, const std::vector<std::vector<double>>& best) {
    const auto& view = s.view();
    const std::vector<GpuTypeId>& allowed = types_.allowed(job, view);
    const auto& index = view.state().free_index();
    by_free_.assign(node_gpus_ + 1, 0);
    for (GpuTypeId t : allowed) {
      for (uint32_t f = 1; f <= index.max_free(t); ++f) {
        by_free_[f] += static_cast<uint32_t>(index.nodes_with(t, f).size());
      }
    }
    for (NodeId n : s.touched_nodes()) {
      if (TypeFilter::allows(allowed, view.cluster().nodes[n.value()])) {
        by_free_[view.state().node_free(n)] -= 1;
        by_free_[s.node_free(n)] += 1;
      }
    }
    double bound = 0;
    uint32_t k = 0;
    uint32_t prefix = 0;
    for (uint32_t f = node_gpus_; f > 0 && k < job.gpus; --f) {
      for (uint32_t i = 0; i < by_free_[f] && k < job.gpus; ++i) {
        k += 1;
        prefix += f;
        if (prefix >= job.gpus) {
          bound = k == 1 ? 1 : std::max(bound, best[k][std::min(f, job.gpus / k)]);
        }
      }
    }
    return bound;
  }

  // By k (2..gpus) and m (0..gpus / k): the best efficiency of a gang of `gpus` on k nodes with at
  // most m on its emptiest node, over 1..min(k, leaves) leaves, with NVLink (and without, where some
  // node lacks it); 0 for m = 0. Kept per gang size.
  const std::vector<std::vector<double>>& spread_table(const Cluster& c, uint32_t gpus) {
    if (gpus >= spread_best_.size()) {
      spread_best_.resize(gpus + 1);
    }
    std::vector<std::vector<double>>& best = spread_best_[gpus];
    if (!best.empty()) {
      return best;
    }
    best.resize(gpus + 1);
    for (uint32_t k = 2; k <= gpus; ++k) {
      best[k].assign(gpus / k + 1, 0);
      for (uint32_t m = 1; m <= gpus / k; ++m) {
        double e = best[k][m - 1];
        for (uint32_t leaves = 1; leaves <= std::min(k, leaf_count_); ++leaves) {
          const models::PlacementSummary summary{m, k, leaves};
          e = std::max({e, efficiency(c, summary, true), some_without_nvlink_ ? efficiency(c, summary, false) : 0});
        }
        best[k][m] = e;
      }
    }
    return best;
  }

  // Waiting is worth it while it is shorter than the slowdown it avoids: the gang's expected run
  // (time limit, else a prediction from completed jobs — never its true duration) × (1/efficiency
  // − 1), at most max_wait. With no estimate yet it does not wait. Only while a running job may
  // free a better domain (its completion calls the scheduler again).
  bool may_wait(const JobSpec& job, const state::ClusterView& view, double efficiency) {
    if (view.running().empty()) {
      return false;
    }
    const Duration expected = estimator_.estimate(job, view);
    const double worth_s = expected.is_infinite() ? 0 : expected.to_seconds() * (1 / efficiency - 1);
    const double waited_s = (view.now() - view.record(job.id).pending_since).to_seconds();
    return waited_s < std::min(worth_s, o_.max_wait.to_seconds());
  }

  TopoOptions o_;
  DurationEstimator estimator_;
  std::vector<std::vector<NodeId>> leaves_, spines_;
  // For the gang being placed: the allowed nodes with free GPUs, fullest first, and each domain's.
  std::vector<models::NodeGpus> fullest_;
  std::vector<Domain> leaf_domains_, spine_domains_;
  Domain all_domain_;
  std::vector<models::NodeGpus> shape_;  // the shape fill() rates
  std::vector<uint8_t> leaf_seen_;       // by leaf: among the k nodes fill() rates
  uint32_t node_gpus_ = 1, leaf_nodes_ = 1, leaf_count_ = 0;
  bool some_without_nvlink_ = false;  // else every shape fill() rates has NVLink
  // The gang's tightest placement and its all-reduce time without and with NVLink (per gang).
  models::PlacementSummary ideal_;
  std::array<std::optional<double>, 2> ideal_comm_;
  std::vector<std::vector<std::vector<double>>> spread_best_;  // by gang size: spread_table's
  std::vector<uint32_t> by_free_;                              // usable nodes by free GPUs
};

}  // namespace

std::unique_ptr<Placement> make_topo_placement(const TopoOptions& options) {
  return std::make_unique<TopoPlacement>(options);
}

}  // namespace boreas::policy
