#include "policy/placement_cool.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "models/param_check.h"
#include "policy/duration_estimate.h"
#include "policy/placement_util.h"

namespace boreas::policy {

Status validate(const CoolOptions& o) {
  BOREAS_RETURN_IF_ERROR(models::ParamCheck("cool placement")
                             .at_least("long_job (s)", o.long_job.to_seconds(), 0)
                             .in("activity", o.activity, 0, 1)
                             .status());
  BOREAS_RETURN_IF_ERROR(models::validate(o.power));
  return models::validate(o.thermal);
}

namespace {

constexpr uint32_t kUnlimited = std::numeric_limits<uint32_t>::max();

// Power of every rack and zone as the round sees it (busy GPUs at `activity`, the rest idle).
class PowerEstimate {
 public:
  void build(const Scratch& s, const CoolOptions& o) {
    const Cluster& c = s.view().cluster();
    read_nodes(s.view(), o);
    rack_w_.assign(c.racks.size(), 0);
    zone_w_.assign(c.zones.size(), 0);
    for (uint32_t i = 0; i < c.nodes.size(); ++i) {
      const Node& n = c.nodes[i];
      double w = static_w_[i];
      if (n.gpu_type) {
        const uint32_t busy = n.gpu_count - s.node_free(NodeId(i));
        w += idle_w_[i] + busy * delta_w_[i];
      }
      rack_w_[n.rack.value()] += w;
      zone_w_[c.racks[n.rack.value()].zone.value()] += w;
    }
  }
  // What one more busy GPU of this type adds.
  static double delta_w(const GpuType& t, const CoolOptions& o) {
    return models::gpu_power_w(t, o.activity, 1.0, o.power) - models::idle_w(t);
  }
  double rack_w(RackId r) const { return rack_w_[r.value()]; }
  double zone_w(ZoneId z) const { return zone_w_[z.value()]; }

 private:
  // Each node's static watts, its GPUs' idle watts and one busy GPU's extra watts: fixed for a
  // cluster, so computed once (a placement sees one state for its life), not per gang.
  void read_nodes(const state::ClusterView& view, const CoolOptions& o) {
    if (nodes_read_) {
      return;
    }
    nodes_read_ = true;
    const Cluster& c = view.cluster();
    static_w_.assign(c.nodes.size(), 0);
    idle_w_.assign(c.nodes.size(), 0);
    delta_w_.assign(c.nodes.size(), 0);
    for (uint32_t i = 0; i < c.nodes.size(); ++i) {
      const Node& n = c.nodes[i];
      static_w_[i] = models::node_static_w(n, o.power);
      if (n.gpu_type) {
        const GpuType& t = c.catalog.at(*n.gpu_type);
        idle_w_[i] = n.gpu_count * models::idle_w(t);
        delta_w_[i] = delta_w(t, o);
      }
    }
  }

  std::vector<double> rack_w_, zone_w_;
  std::vector<double> static_w_, idle_w_, delta_w_;  // by node
  bool nodes_read_ = false;  // the per-node watts, read at the first round
};

// How many more busy GPUs of `t` fit under `limit_kw` from `used_w` (limit 0 = unlimited).
uint32_t gpus_under(double limit_kw, double used_w, double per_gpu_w) {
  if (limit_kw <= 0 || per_gpu_w <= 0) {
    return kUnlimited;
  }
  const double room = (limit_kw * 1000 - used_w) / per_gpu_w;
  return room <= 0 ? 0 : static_cast<uint32_t>(std::floor(room + 1e-9));
}

class CoolPlacement final : public Placement {
 public:
  explicit CoolPlacement(CoolOptions o) : o_(std::move(o)), pack_(make_pack_placement()) {}
  std::string_view name() const override { return "cool"; }

  std::optional<std::vector<GpuId>> place(const JobSpec& job, const Scratch& s) override {
    if (job.gpus > s.total_free()) {
      return std::nullopt;
    }
    power_.build(s, o_);
    const bool hot = estimator_.estimate(job, s.view()) >= o_.long_job;
    std::optional<std::vector<GpuId>> out = one_node(job, s, hot);
    if (out) {
      return out;
    }
    if (fits_one_node(job, s.view())) {
      // A gang that fits a node is not split to spare a rack: the node that costs the least clock.
      out = least_loss_node(job, s, hot);
    } else {
      // Nor is a gang that fits a rack split over racks (its all-reduce would cross the spine):
      // the rack that costs the least clock; only a gang no rack holds is spread.
      out = least_loss_rack(job, s, hot);
      if (!out) {
        out = across_racks(job, s, hot);
      }
    }
    return out ? out : pack_->place(job, s);
  }

 private:
  bool fits_one_node(const JobSpec& job, const state::ClusterView& view) {
    for (const Node& n : view.cluster().nodes) {
      if (n.gpu_count >= job.gpus && types_.allows(job, n, view)) {
        return true;
      }
    }
    return false;
  }

  // Busy GPUs rack r's node type may still add: cooling limit (air), power limit, zone cap, and
  // zero when the zone's inlet alone would throttle a busy GPU.
  uint32_t rack_room(const Cluster& c, RackId r, const GpuType& t) const {
    const Rack& rack = c.racks[r.value()];
    const Zone& zone = c.zones[rack.zone.value()];
    if (throttles(t, zone)) {
      return 0;
    }
    const double per = PowerEstimate::delta_w(t, o_);
    uint32_t room = gpus_under(rack.power_limit_kw, power_.rack_w(r), per);
    if (zone.cooling == CoolingKind::kAir) {
      room = std::min(room, gpus_under(rack.cooling_limit_kw, power_.rack_w(r), per));
    }
    return std::min(room, gpus_under(zone.power_cap_kw, power_.zone_w(rack.zone), per));
  }

  bool throttles(const GpuType& t, const Zone& zone) const {
    if (models::validate_for_power(t).is_ok() == false) {
      return false;  // a type the power model cannot rate: nothing to predict
    }
    const models::Rc rc = models::rc_for(t, zone.cooling, o_.thermal);
    return models::throttle_state(t, o_.activity, zone.inlet_c, rc, o_.power, o_.thermal).level !=
           models::Throttle::kNone;
  }

  // Hot jobs rank liquid and immersion zones first; other jobs have no zone preference.
  static bool off_zone(const Cluster& c, const Node& n, bool hot) {
    return hot && c.zone_of(n).cooling == CoolingKind::kAir;
  }

  // The node that takes the whole gang with the smallest key(node id, node, free GPUs); a key of
  // nullopt rules the node out.
  template <typename KeyOf>
  std::optional<std::vector<GpuId>> best_node(const JobSpec& job, const Scratch& s, KeyOf key_of) {
    const auto& view = s.view();
    const Cluster& c = view.cluster();
    std::optional<NodeId> best;
    decltype(key_of(NodeId(0), c.nodes[0], 0u)) best_key;
    for (uint32_t i = 0; i < c.nodes.size(); ++i) {
      const Node& n = c.nodes[i];
      const uint32_t f = s.node_free(NodeId(i));
      if (f < job.gpus || !types_.allows(job, n, view)) {
        continue;
      }
      auto key = key_of(NodeId(i), n, f);
      if (key && (!best_key || *key < *best_key)) {
        best = NodeId(i);
        best_key = key;
      }
    }
    if (!best) {
      return std::nullopt;
    }
    std::vector<GpuId> out;
    s.take_free_on_node(*best, job.gpus, out);
    return out;
  }

  // Best fit among the nodes whose rack and zone take the whole gang within their limits.
  std::optional<std::vector<GpuId>> one_node(const JobSpec& job, const Scratch& s, bool hot) {
    const Cluster& c = s.view().cluster();
    return best_node(job, s, [&](NodeId, const Node& n, uint32_t free) -> std::optional<std::pair<bool, uint32_t>> {
      if (rack_room(c, n.rack, c.catalog.at(*n.gpu_type)) < job.gpus) {
        return std::nullopt;
      }
      return std::pair<bool, uint32_t>{off_zone(c, n, hot), free};
    });
  }

  // Clock a rack's busy GPUs lose, summed (GPU-equivalents), with `busy` of them busy and the
  // rack drawing `rack_w`: a rack over its air-cooling limit raises its own inlet, and every busy
  // GPU in it settles at the clock that inlet allows (models/thermal.h).
  double rack_loss(const Cluster& c, RackId r, const GpuType& t, uint32_t busy, double rack_w) const {
    if (busy == 0 || !models::validate_for_power(t).is_ok()) {
      return 0;
    }
    const Rack& rack = c.racks[r.value()];
    const Zone& zone = c.zones[rack.zone.value()];
    const double inlet = models::rack_inlet_c(zone, rack, rack_w / 1000, o_.thermal);
    const models::Rc rc = models::rc_for(t, zone.cooling, o_.thermal);
    const double clock = models::throttle_state(t, o_.activity, inlet, rc, o_.power, o_.thermal).clock;
    return busy * (1 - clock);
  }

  // The clock rack r's busy GPUs lose (rack_loss) when `gpus` more of type t get busy there,
  // rounded to 1e-6 so that equal racks tie.
  double loss_of_adding(uint32_t gpus, RackId r, const GpuType& t, const Scratch& s) const {
    const Cluster& c = s.view().cluster();
    const uint32_t busy = rack_gpus(s.view(), r) - s.rack_free(r);
    const double w = power_.rack_w(r);
    const double after = rack_loss(c, r, t, busy + gpus, w + gpus * PowerEstimate::delta_w(t, o_));
    return std::round((after - rack_loss(c, r, t, busy, w)) * 1e6) / 1e6;
  }

  // When no rack takes the job within its limits: the node whose rack loses the least clock by
  // taking it — a rack already past its cooling limit before a rack that would be tipped over,
  // so that fewer GPUs throttle — then hot jobs off air, then best fit.
  std::optional<std::vector<GpuId>> least_loss_node(const JobSpec& job, const Scratch& s, bool hot) {
    const auto& view = s.view();
    const Cluster& c = view.cluster();
    using Key = std::tuple<double, bool, uint32_t>;
    return best_node(job, s, [&](NodeId, const Node& n, uint32_t free) -> std::optional<Key> {
      return Key{loss_of_adding(job.gpus, n.rack, c.catalog.at(*n.gpu_type), s), off_zone(c, n, hot), free};
    });
  }

  // The rack with enough free GPUs for the whole gang whose busy GPUs lose the least clock by
  // taking it, then hot jobs off air, then the fewest free GPUs (best fit); filled fullest node first.
  std::optional<std::vector<GpuId>> least_loss_rack(const JobSpec& job, const Scratch& s, bool hot) {
    const auto& view = s.view();
    const Cluster& c = view.cluster();
    using Key = std::tuple<double, bool, uint32_t, uint32_t>;
    std::optional<Key> best;
    for (uint32_t r = 0; r < c.racks.size(); ++r) {
      const uint32_t free = s.rack_free(RackId(r));
      const Node* node = free >= job.gpus ? allowed_node(job, view, RackId(r)) : nullptr;
      if (node == nullptr) {
        continue;
      }
      const Key key{loss_of_adding(job.gpus, RackId(r), c.catalog.at(*node->gpu_type), s), off_zone(c, *node, hot),
                    free, r};
      if (!best || key < *best) {
        best = key;
      }
    }
    if (!best) {
      return std::nullopt;
    }
    std::vector<GpuId> out;
    std::vector<double> zone_added(c.zones.size(), 0);
    take_from_rack(job, s, RackId(std::get<3>(*best)), job.gpus, zone_added, out);
    if (out.size() != job.gpus) {
      return std::nullopt;  // a zone cap cut it short: the spread below decides
    }
    return out;
  }

  // The rack's first node the job may use (racks hold one type in practice), or null.
  const Node* allowed_node(const JobSpec& job, const state::ClusterView& view, RackId r) {
    for (NodeId n : view.state().nodes_of_rack(r)) {
      const Node& node = view.cluster().nodes[n.value()];
      if (types_.allows(job, node, view)) {
        return &node;
      }
    }
    return nullptr;
  }

  static uint32_t rack_gpus(const state::ClusterView& view, RackId r) {
    uint32_t total = 0;
    for (NodeId n : view.state().nodes_of_rack(r)) {
      total += view.cluster().nodes[n.value()].gpu_count;
    }
    return total;
  }

  // A gang larger than any fitting node: racks in preference order (then most room first), each
  // filled fullest node first up to its room. Zone caps are re-checked as GPUs are added.
  std::optional<std::vector<GpuId>> across_racks(const JobSpec& job, const Scratch& s, bool hot) {
    const Cluster& c = s.view().cluster();
    struct RackRoom {
      bool off_zone;
      uint32_t room;
      uint32_t rack;
    };
    std::vector<RackRoom> racks;
    for (uint32_t r = 0; r < c.racks.size(); ++r) {
      const uint32_t room = std::min(s.rack_free(RackId(r)), room_of_rack(job, s, RackId(r)));
      if (room > 0) {
        racks.push_back({hot && c.zones[c.racks[r].zone.value()].cooling == CoolingKind::kAir, room, r});
      }
    }
    std::sort(racks.begin(), racks.end(), [](const RackRoom& a, const RackRoom& b) {
      return a.off_zone != b.off_zone ? !a.off_zone : (a.room != b.room ? a.room > b.room : a.rack < b.rack);
    });
    std::vector<GpuId> out;
    std::vector<double> zone_added(c.zones.size(), 0);
    for (const RackRoom& rr : racks) {
      take_from_rack(job, s, RackId(rr.rack), rr.room, zone_added, out);
      if (out.size() == job.gpus) {
        return out;
      }
    }
    return std::nullopt;
  }

  // The room of a rack for this job: its nodes' type (racks hold one type in practice; the first
  // allowed GPU node decides) through rack_room.
  uint32_t room_of_rack(const JobSpec& job, const Scratch& s, RackId r) {
    const Node* node = allowed_node(job, s.view(), r);
    return node == nullptr ? 0 : rack_room(s.view().cluster(), r, s.view().cluster().catalog.at(*node->gpu_type));
  }

  void take_from_rack(const JobSpec& job, const Scratch& s, RackId r, uint32_t room,
                      std::vector<double>& zone_added, std::vector<GpuId>& out) {
    const auto& view = s.view();
    const Cluster& c = view.cluster();
    const Zone& zone = c.zones[c.racks[r.value()].zone.value()];
    const ZoneId z = c.racks[r.value()].zone;
    std::vector<NodeId> nodes(view.state().nodes_of_rack(r).begin(), view.state().nodes_of_rack(r).end());
    std::stable_sort(nodes.begin(), nodes.end(),
                     [&](NodeId a, NodeId b) { return s.node_free(a) > s.node_free(b); });
    for (NodeId n : nodes) {
      const Node& node = c.nodes[n.value()];
      if (room == 0 || out.size() == job.gpus || !types_.allows(job, node, view)) {
        continue;
      }
      const double per = PowerEstimate::delta_w(c.catalog.at(*node.gpu_type), o_);
      const uint32_t zone_room = gpus_under(zone.power_cap_kw, power_.zone_w(z) + zone_added[z.value()], per);
      const uint32_t want = std::min({room, zone_room, job.gpus - static_cast<uint32_t>(out.size())});
      const uint32_t got = s.take_free_on_node(n, want, out);
      room -= got;
      zone_added[z.value()] += got * per;
    }
  }

  CoolOptions o_;
  std::unique_ptr<Placement> pack_;
  PowerEstimate power_;
  DurationEstimator estimator_;
};

}  // namespace

std::unique_ptr<Placement> make_cool_placement(const CoolOptions& options) {
  return std::make_unique<CoolPlacement>(options);
}

}  // namespace boreas::policy
