#include "serving/service_spec.h"

#include <fmt/format.h>

#include <utility>
#include <vector>

#include "config/spec_reader.h"

namespace boreas::serving {

namespace {

using config::MapReader;

// Reads `key` (one of `names`) into *out; absent keeps the default.
template <typename E>
Status choice(const MapReader& m, std::string_view key, const std::vector<std::pair<std::string, E>>& names, E* out) {
  std::string v;
  BOREAS_RETURN_IF_ERROR(m.text(key, &v));
  if (v.empty()) {
    return Status::ok();
  }
  std::string known;
  for (const auto& [name, value] : names) {
    if (name == v) {
      *out = value;
      return Status::ok();
    }
    known += (known.empty() ? "" : ", ") + name;
  }
  return m.ctx().error(m.get(key), fmt::format("{} '{}' is unknown", key, v), "use one of: " + known);
}

Status int32_field(const MapReader& m, std::string_view key, int32_t* out, bool required = false) {
  int64_t v = *out;
  BOREAS_RETURN_IF_ERROR(m.count(key, &v, required));
  if (v > INT32_MAX) {
    return m.ctx().error(m.get(key), fmt::format("{} is too large", key), "use a smaller number");
  }
  *out = static_cast<int32_t>(v);
  return Status::ok();
}

Status read_model(const MapReader& m, ModelShape* out) {
  BOREAS_RETURN_IF_ERROR(m.check({"params_b", "layers", "hidden", "kv_bytes_per_token", "bytes_per_param"}));
  double params_b = 0;
  BOREAS_RETURN_IF_ERROR(m.positive("params_b", &params_b, true));
  out->params = params_b * 1e9;
  BOREAS_RETURN_IF_ERROR(int32_field(m, "layers", &out->layers, true));
  BOREAS_RETURN_IF_ERROR(int32_field(m, "hidden", &out->hidden, true));
  BOREAS_RETURN_IF_ERROR(m.positive("kv_bytes_per_token", &out->kv_bytes_per_token, true, true));
  return m.positive("bytes_per_param", &out->bytes_per_param);
}

Status read_batching(const MapReader& m, BatchingSpec* out) {
  BOREAS_RETURN_IF_ERROR(m.check({"kind", "max_batch", "token_budget", "memory_fraction", "window_ms",
                                  "batch_fixed_ms", "batch_per_item_ms"}));
  BOREAS_RETURN_IF_ERROR(choice<BatchingKind>(
      m, "kind", {{"continuous", BatchingKind::kContinuous}, {"dynamic", BatchingKind::kDynamic}}, &out->kind));
  BOREAS_RETURN_IF_ERROR(int32_field(m, "max_batch", &out->max_batch));
  BOREAS_RETURN_IF_ERROR(int32_field(m, "token_budget", &out->token_budget));
  BOREAS_RETURN_IF_ERROR(m.positive("memory_fraction", &out->memory_fraction));
  if (out->memory_fraction > 1) {
    return m.ctx().error(m.get("memory_fraction"), "memory_fraction is above 1", "use a fraction such as 0.9");
  }
  double ms[3] = {out->window_s * 1e3, out->batch_fixed_s * 1e3, out->batch_per_item_s * 1e3};
  BOREAS_RETURN_IF_ERROR(m.positive("window_ms", &ms[0], false, true));
  BOREAS_RETURN_IF_ERROR(m.positive("batch_fixed_ms", &ms[1], false, true));
  BOREAS_RETURN_IF_ERROR(m.positive("batch_per_item_ms", &ms[2], false, true));
  out->window_s = ms[0] / 1e3;
  out->batch_fixed_s = ms[1] / 1e3;
  out->batch_per_item_s = ms[2] / 1e3;
  return Status::ok();
}

Status read_autoscaler(const MapReader& m, AutoscalerSpec* out) {
  BOREAS_RETURN_IF_ERROR(m.check({"kind", "min_replicas", "max_replicas", "initial_replicas", "interval_s",
                                  "target_inflight", "window_s", "load_gbps"}));
  BOREAS_RETURN_IF_ERROR(choice<AutoscalerKind>(m, "kind",
                                                {{"none", AutoscalerKind::kNone},
                                                 {"reactive", AutoscalerKind::kReactive},
                                                 {"predictive", AutoscalerKind::kPredictive}},
                                                &out->kind));
  BOREAS_RETURN_IF_ERROR(int32_field(m, "min_replicas", &out->min_replicas));
  out->max_replicas = out->min_replicas;
  out->initial_replicas = out->min_replicas;
  BOREAS_RETURN_IF_ERROR(int32_field(m, "max_replicas", &out->max_replicas));
  BOREAS_RETURN_IF_ERROR(int32_field(m, "initial_replicas", &out->initial_replicas));
  if (out->max_replicas < out->min_replicas || out->initial_replicas < out->min_replicas ||
      out->initial_replicas > out->max_replicas) {
    return m.ctx().error(m.node(), "replica counts are out of order",
                         "make min_replicas <= initial_replicas <= max_replicas");
  }
  BOREAS_RETURN_IF_ERROR(m.positive("interval_s", &out->interval_s));
  BOREAS_RETURN_IF_ERROR(m.positive("target_inflight", &out->target_inflight));
  BOREAS_RETURN_IF_ERROR(m.positive("window_s", &out->window_s));
  return m.positive("load_gbps", &out->load_gbps);
}

// `kind: absolute` is required for the absolute thresholds, so a spec never mixes the two rules.
Status read_slo(const MapReader& m, SloSpec* out) {
  BOREAS_RETURN_IF_ERROR(m.check({"kind", "ttft_s", "tbt_s", "target"}));
  BOREAS_RETURN_IF_ERROR(
      choice<SloKind>(m, "kind", {{"slowdown", SloKind::kSlowdown}, {"absolute", SloKind::kAbsolute}}, &out->kind));
  if (out->kind == SloKind::kSlowdown) {
    for (const char* key : {"ttft_s", "tbt_s", "target"}) {
      if (m.has(key)) {
        return m.ctx().error(m.get(key), fmt::format("{} is an absolute threshold, but the SLO kind is slowdown", key),
                             "add 'kind: absolute' to slo, or remove " + std::string(key));
      }
    }
    return Status::ok();
  }
  BOREAS_RETURN_IF_ERROR(m.positive("ttft_s", &out->ttft_s));
  BOREAS_RETURN_IF_ERROR(m.positive("tbt_s", &out->tbt_s));
  BOREAS_RETURN_IF_ERROR(m.positive("target", &out->target));
  if (out->target > 1) {
    return m.ctx().error(m.get("target"), "target is above 1", "give the share of requests, such as 0.99");
  }
  return Status::ok();
}

Status read_replica(const MapReader& m, ServiceSpec* out) {
  BOREAS_RETURN_IF_ERROR(m.check({"gpu", "tp"}));
  BOREAS_RETURN_IF_ERROR(m.text("gpu", &out->gpu, true));
  return int32_field(m, "tp", &out->tp);
}

Status read_service(const MapReader& m, ServiceSpec* out) {
  BOREAS_RETURN_IF_ERROR(m.check({"name", "model", "replica", "batching", "router", "autoscaler", "slo"}));
  BOREAS_RETURN_IF_ERROR(m.text("name", &out->name, true));
  BOREAS_RETURN_IF_ERROR(read_model(m.child("model", "model"), &out->model));
  BOREAS_RETURN_IF_ERROR(read_replica(m.child("replica", "replica"), out));
  if (m.has("batching")) {
    BOREAS_RETURN_IF_ERROR(read_batching(m.child("batching", "batching"), &out->batching));
  }
  BOREAS_RETURN_IF_ERROR(choice<RouterKind>(m, "router",
                                            {{"round-robin", RouterKind::kRoundRobin},
                                             {"shortest-queue", RouterKind::kShortestQueue},
                                             {"prefix", RouterKind::kPrefix}},
                                            &out->router));
  if (m.has("autoscaler")) {
    BOREAS_RETURN_IF_ERROR(read_autoscaler(m.child("autoscaler", "autoscaler"), &out->autoscaler));
  }
  if (m.has("slo")) {
    BOREAS_RETURN_IF_ERROR(read_slo(m.child("slo", "slo"), &out->slo));
  }
  return Status::ok();
}

}  // namespace

Result<ServiceSpec> load_service_string(const std::string& yaml, const std::string& file) {
  auto root = config::parse_yaml(yaml, file);
  if (!root.is_ok()) {
    return root.status();
  }
  const config::SpecContext ctx(file, nullptr);
  ServiceSpec spec;
  try {
    BOREAS_RETURN_IF_ERROR(read_service(MapReader(ctx, *root, "service"), &spec));
  } catch (const YAML::Exception& e) {
    return config::yaml_exception_status(file, e);
  }
  return spec;
}

Result<ServiceSpec> load_service_file(const std::string& path) {
  auto text = config::read_text_file(path);
  if (!text.is_ok()) {
    return text.status();
  }
  return load_service_string(*text, path);
}

}  // namespace boreas::serving
