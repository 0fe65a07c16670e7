#include "models/site.h"

#include <algorithm>

namespace boreas::models {
namespace {

double node_kw(const Cluster& c, const Node& n, double activity, const PowerParams& p) {
  double gpu_w = 0;
  if (n.gpu_type) {
    gpu_w = n.gpu_count * gpu_power_w(c.catalog.at(*n.gpu_type), activity, 1.0, p);
  }
  return (gpu_w + node_static_w(n, p)) / 1000.0;
}

// Hottest steady state and worst throttle state among the rack's GPU nodes.
void rate_gpus(const Cluster& c, const Node& n, double activity, const PowerParams& power,
               const ThermalParams& thermal, RackThermal& r) {
  if (!n.gpu_type || n.gpu_count == 0) {
    return;
  }
  const GpuType& type = c.catalog.at(*n.gpu_type);
  const Rc rc = rc_for(type, c.zone_of(n).cooling, thermal);
  const double temp = steady_state_c(r.inlet_c, gpu_power_w(type, activity, 1.0, power), rc);
  r.gpu_temp_c = std::max(r.gpu_temp_c, temp);
  const ThrottleState t = throttle_state(type, activity, r.inlet_c, rc, power, thermal);
  if (t.clock < r.throttle.clock) {
    r.throttle = t;
  }
  r.gpus += n.gpu_count;
}

std::vector<ZonePower> zone_power(const Cluster& c, const std::vector<RackThermal>& racks, double activity,
                                  const PowerParams& p) {
  std::vector<ZonePower> zones(c.zones.size());
  std::vector<std::vector<GpuLoad>> loads(c.zones.size());
  std::vector<double> static_w(c.zones.size(), 0);
  for (uint32_t z = 0; z < zones.size(); ++z) {
    zones[z].zone = z;
  }
  for (const RackThermal& r : racks) {
    zones[c.racks[r.rack].zone.value()].it_kw += r.it_kw;
  }
  for (const Node& n : c.nodes) {
    const uint32_t z = c.racks[n.rack.value()].zone.value();
    static_w[z] += node_static_w(n, p);
    for (uint32_t g = 0; n.gpu_type && g < n.gpu_count; ++g) {
      loads[z].push_back({&c.catalog.at(*n.gpu_type), activity});
    }
  }
  for (uint32_t z = 0; z < zones.size(); ++z) {
    zones[z].facility_kw = zones[z].it_kw * c.zones[z].pue;
    const double cap_kw = c.zones[z].power_cap_kw;
    zones[z].cap = cap_kw > 0 ? group_clock_for_cap(loads[z], static_w[z], cap_kw * 1000, p) : CappedClock{};
  }
  return zones;
}

}  // namespace

SiteThermal site_thermal(const Cluster& cluster, double activity, const PowerParams& power,
                         const ThermalParams& thermal) {
  SiteThermal site;
  site.racks.resize(cluster.racks.size());
  for (uint32_t i = 0; i < site.racks.size(); ++i) {
    site.racks[i].rack = i;
  }
  for (const Node& n : cluster.nodes) {
    site.racks[n.rack.value()].it_kw += node_kw(cluster, n, activity, power);
  }
  for (RackThermal& r : site.racks) {
    const Rack& rack = cluster.racks[r.rack];
    r.inlet_c = rack_inlet_c(cluster.zones[rack.zone.value()], rack, r.it_kw, thermal);
  }
  for (const Node& n : cluster.nodes) {
    rate_gpus(cluster, n, activity, power, thermal, site.racks[n.rack.value()]);
  }
  site.zones = zone_power(cluster, site.racks, activity, power);
  return site;
}

}  // namespace boreas::models
