#include "models/params.h"

#include <charconv>
#include <cmath>

#include "models/param_check.h"

namespace boreas::models {
namespace {

// How a table name reaches its field.
struct Binding {
  std::string_view name;
  double (*get)(const ModelParams&);
  void (*set)(ModelParams&, double);
};

#define BOREAS_FIELD(NAME, MEMBER)                               \
  Binding {                                                      \
    NAME, [](const ModelParams& m) -> double { return m.MEMBER; }, \
        [](ModelParams& m, double v) { m.MEMBER = v; }            \
  }

// A per-type threshold row of the thermal model (added when the name is new).
ThrottleThresholds& threshold_row(ThermalParams& t, std::string_view gpu) {
  for (ThrottleThresholds& row : t.by_type) {
    if (row.gpu == gpu) {
      return row;
    }
  }
  t.by_type.push_back({std::string(gpu), t.max_operating_c, t.hw_slowdown_c});
  return t.by_type.back();
}
ThrottleThresholds threshold_of(const ThermalParams& t, std::string_view gpu) {
  for (const ThrottleThresholds& row : t.by_type) {
    if (row.gpu == gpu) {
      return row;
    }
  }
  return {std::string(gpu), t.max_operating_c, t.hw_slowdown_c};
}

#define BOREAS_THRESHOLD(NAME, GPU, MEMBER)                                                    \
  Binding {                                                                                    \
    NAME, [](const ModelParams& m) -> double { return threshold_of(m.thermal, GPU).MEMBER; }, \
        [](ModelParams& m, double v) { threshold_row(m.thermal, GPU).MEMBER = v; }             \
  }

Duration us(double v) {
  return Duration::micros(static_cast<int64_t>(std::llround(v)));
}

const Binding kBindings[] = {
    BOREAS_FIELD("comm.nvlink_efficiency", comm.nvlink_efficiency),
    BOREAS_FIELD("comm.network_efficiency", comm.network_efficiency),
    BOREAS_FIELD("comm.hierarchical_overlap", comm.hierarchical_overlap),
    BOREAS_FIELD("comm.pcie_gbps", comm.pcie_gbps),
    Binding{"comm.pcie_latency_us", [](const ModelParams& m) { return m.comm.pcie_latency.to_seconds() * 1e6; },
            [](ModelParams& m, double v) { m.comm.pcie_latency = us(v); }},
    BOREAS_FIELD("workload.comm_bytes", workload.comm_bytes),
    BOREAS_FIELD("workload.step_compute_s", workload.step_compute_s),
    BOREAS_FIELD("workload.comm_overlap", workload.comm_overlap),
    BOREAS_FIELD("power.clock_power_exponent", power.clock_power_exponent),
    BOREAS_FIELD("power.min_clock", power.min_clock),
    BOREAS_FIELD("power.default_activity", power.default_activity),
    BOREAS_FIELD("workload.training_activity", workload.training_activity),
    BOREAS_FIELD("workload.inference_activity", workload.inference_activity),
    BOREAS_FIELD("power.nvlink_node_host_w", power.nvlink_node_host_w),
    BOREAS_FIELD("power.nvlink_node_per_gpu_w", power.nvlink_node_per_gpu_w),
    BOREAS_FIELD("power.pcie_node_host_w", power.pcie_node_host_w),
    BOREAS_FIELD("power.pcie_node_per_gpu_w", power.pcie_node_per_gpu_w),
    BOREAS_FIELD("thermal.air.rise_at_tdp_c", thermal.air.rise_at_tdp_c),
    BOREAS_FIELD("thermal.air.tau_s", thermal.air.tau_s),
    BOREAS_FIELD("thermal.direct_liquid.rise_at_tdp_c", thermal.direct_liquid.rise_at_tdp_c),
    BOREAS_FIELD("thermal.direct_liquid.tau_s", thermal.direct_liquid.tau_s),
    BOREAS_FIELD("thermal.immersion.rise_at_tdp_c", thermal.immersion.rise_at_tdp_c),
    BOREAS_FIELD("thermal.immersion.tau_s", thermal.immersion.tau_s),
    BOREAS_FIELD("thermal.inlet_rise_c_per_kw", thermal.inlet_rise_c_per_kw),
    BOREAS_FIELD("thermal.max_operating_c", thermal.max_operating_c),
    BOREAS_FIELD("thermal.hw_slowdown_c", thermal.hw_slowdown_c),
    BOREAS_FIELD("thermal.hw_slowdown_clock", thermal.hw_slowdown_clock),
    BOREAS_THRESHOLD("thermal.H100-PCIe.max_operating_c", "H100-PCIe", max_operating_c),
    BOREAS_THRESHOLD("thermal.H100-PCIe.hw_slowdown_c", "H100-PCIe", hw_slowdown_c),
    BOREAS_THRESHOLD("thermal.H100-SXM.max_operating_c", "H100-SXM", max_operating_c),
    BOREAS_THRESHOLD("thermal.H100-SXM.hw_slowdown_c", "H100-SXM", hw_slowdown_c),
    BOREAS_FIELD("failure.gpu_mtbf_hours", failure.gpu_mtbf_hours),
    // The table gives the 8-GPU host figure; llama3_failure_params(8) keeps it as it is.
    BOREAS_FIELD("failure.node_mtbf_hours", failure.node_mtbf_hours),
    BOREAS_FIELD("failure.job_only_mtbf_hours", failure.job_only_mtbf_hours),
    BOREAS_FIELD("failure.gpu_repair_hours", failure.gpu_repair_hours),
    BOREAS_FIELD("failure.node_repair_hours", failure.node_repair_hours),
    BOREAS_FIELD("checkpoint.bytes_per_param", checkpoint.bytes_per_param),
    BOREAS_FIELD("checkpoint.write_gbps", checkpoint.write_gbps),
    BOREAS_FIELD("checkpoint.read_gbps", checkpoint.read_gbps),
    BOREAS_FIELD("checkpoint.restart_overhead_s", checkpoint.restart_overhead_s),
    BOREAS_FIELD("workload.checkpoint_write_s", workload.checkpoint_write_s),
    BOREAS_FIELD("spot.mean_hours_between_reclaims", spot.mean_hours_between_reclaims),
    BOREAS_FIELD("spot.mean_hours_reclaimed", spot.mean_hours_reclaimed),
    Binding{"spot.notice_s", [](const ModelParams& m) { return m.spot.notice.to_seconds(); },
            [](ModelParams& m, double v) { m.spot.notice = us(v * 1e6); }},
    BOREAS_FIELD("cost.reserved_discount", cost.reserved_discount),
    BOREAS_FIELD("cost.spot_discount", cost.spot_discount),
    BOREAS_FIELD("cost.energy_usd_per_kwh", cost.energy_usd_per_kwh),
};

#undef BOREAS_FIELD
#undef BOREAS_THRESHOLD

const Binding* find_binding(std::string_view name) {
  for (const Binding& b : kBindings) {
    if (b.name == name) {
      return &b;
    }
  }
  return nullptr;
}

Status validate_workload(const WorkloadParams& w) {
  return ParamCheck("workload")
      .in("training_activity", w.training_activity, 0, 1)
      .in("inference_activity", w.inference_activity, 0, 1)
      .at_least("comm_bytes", w.comm_bytes, 0)
      .positive("step_compute_s", w.step_compute_s)
      .in("comm_overlap", w.comm_overlap, 0, 1)
      .at_least("checkpoint_write_s", w.checkpoint_write_s, 0)
      .status();
}

Result<ParamOverride> parse_one(std::string_view item) {
  const size_t eq = item.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return invalid_argument("--param: '" + std::string(item) +
                            "' is not NAME=VALUE; e.g. --param thermal.inlet_rise_c_per_kw=2");
  }
  const std::string_view text = item.substr(eq + 1);
  ParamOverride o{std::string(item.substr(0, eq)), 0};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), o.value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || !std::isfinite(o.value)) {
    return invalid_argument("--param " + o.name + ": '" + std::string(text) +
                            "' is not a number; give a decimal value, e.g. " + o.name + "=1.5");
  }
  return o;
}

}  // namespace

Status validate(const ModelParams& p) {
  BOREAS_RETURN_IF_ERROR(validate(p.comm));
  BOREAS_RETURN_IF_ERROR(validate(p.power));
  BOREAS_RETURN_IF_ERROR(validate(p.thermal));
  BOREAS_RETURN_IF_ERROR(validate(p.failure));
  BOREAS_RETURN_IF_ERROR(validate(p.checkpoint));
  BOREAS_RETURN_IF_ERROR(validate(p.spot));
  BOREAS_RETURN_IF_ERROR(validate(p.cost));
  return validate_workload(p.workload);
}

std::span<const ParamSpec> param_table() {
  return table::kParams;
}

std::vector<std::string> param_names() {
  std::vector<std::string> out;
  for (const ParamSpec& p : table::kParams) {
    out.emplace_back(p.name);
  }
  return out;
}

const ParamSpec* find_param(std::string_view name) {
  for (const ParamSpec& p : table::kParams) {
    if (p.name == name) {
      return &p;
    }
  }
  return nullptr;
}

std::optional<double> get_param(const ModelParams& p, std::string_view name) {
  const Binding* b = find_binding(name);
  return b ? std::optional<double>(b->get(p)) : std::nullopt;
}

Status set_param(ModelParams& p, std::string_view name, double value) {
  const Binding* b = find_binding(name);
  if (b == nullptr) {
    return not_found("--param: unknown parameter '" + std::string(name) + "'");
  }
  b->set(p, value);
  return Status::ok();
}

Result<std::vector<ParamOverride>> parse_param_overrides(std::string_view list) {
  std::vector<ParamOverride> out;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    if (!item.empty()) {
      Result<ParamOverride> one = parse_one(item);
      if (!one.is_ok()) {
        return one.status();
      }
      out.push_back(std::move(*one));
    }
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return out;
}

Status apply_overrides(ModelParams& p, std::span<const ParamOverride> overrides) {
  for (const ParamOverride& o : overrides) {
    BOREAS_RETURN_IF_ERROR(set_param(p, o.name, o.value));
  }
  const Status st = validate(p);
  return st.is_ok() ? st : st.with_context("--param: ");
}

double default_restore_s(const ModelParams& p) {
  return p.checkpoint.restart_overhead_s +
         p.workload.checkpoint_write_s * p.checkpoint.write_gbps / p.checkpoint.read_gbps;
}

}  // namespace boreas::models
