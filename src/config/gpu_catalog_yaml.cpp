#include "config/gpu_catalog_yaml.h"

#include "config/spec_reader.h"
#include "config/suggest.h"

namespace boreas::config {
namespace {

Status read_price(const MapReader& type, GpuPrice* price) {
  if (!type.has("price")) {
    return Status::ok();
  }
  const MapReader p = type.child("price", "price of " + type.what());
  BOREAS_RETURN_IF_ERROR(p.check({"on_demand", "spot", "reserved", "date", "source"}));
  BOREAS_RETURN_IF_ERROR(p.positive("on_demand", &price->on_demand_usd_per_hour, false, true));
  BOREAS_RETURN_IF_ERROR(p.positive("spot", &price->spot_usd_per_hour, false, true));
  BOREAS_RETURN_IF_ERROR(p.positive("reserved", &price->reserved_usd_per_hour, false, true));
  if (p.get("date").IsScalar()) {
    price->date = p.get("date").Scalar();
  }
  if (p.get("source").IsScalar()) {
    price->source = p.get("source").Scalar();
  }
  return Status::ok();
}

Status read_figures(const MapReader& t, GpuType* g) {
  BOREAS_RETURN_IF_ERROR(t.positive("bf16_tflops", &g->bf16_tflops, true));
  BOREAS_RETURN_IF_ERROR(t.optional_number("fp8_tflops", &g->fp8_tflops));
  BOREAS_RETURN_IF_ERROR(t.optional_number("int8_tops", &g->int8_tops));
  BOREAS_RETURN_IF_ERROR(t.optional_number("tf32_tflops", &g->tf32_tflops));
  BOREAS_RETURN_IF_ERROR(t.positive("fp32_tflops", &g->fp32_tflops, true));
  BOREAS_RETURN_IF_ERROR(t.positive("memory_gib", &g->memory_gib, true));
  BOREAS_RETURN_IF_ERROR(t.positive("memory_bandwidth_gbps", &g->memory_bandwidth_gbps, true));
  BOREAS_RETURN_IF_ERROR(t.positive("tdp_w", &g->tdp_w, true));
  g->idle_w = g->tdp_w * 0.1;  // documented default rule (FACTS §3.1)
  BOREAS_RETURN_IF_ERROR(t.positive("idle_w", &g->idle_w, false, true));
  return t.positive("nvlink_gbps", &g->nvlink_gbps, false, true);
}

Result<GpuType> read_type(const SpecContext& ctx, const YAML::Node& node) {
  MapReader t(ctx, node, "GPU type");
  BOREAS_RETURN_IF_ERROR(t.check({"name", "aliases", "bf16_tflops", "fp8_tflops", "int8_tops", "tf32_tflops",
                                  "fp32_tflops", "memory_gib", "memory_bandwidth_gbps", "tdp_w", "idle_w",
                                  "nvlink_gbps", "price", "placeholder", "note"}));
  GpuType g;
  BOREAS_RETURN_IF_ERROR(t.text("name", &g.name, true));
  const MapReader named(ctx, node, "GPU type '" + g.name + "'");
  BOREAS_RETURN_IF_ERROR(named.text_list("aliases", &g.aliases));
  BOREAS_RETURN_IF_ERROR(read_figures(named, &g));
  BOREAS_RETURN_IF_ERROR(read_price(named, &g.price));
  BOREAS_RETURN_IF_ERROR(named.boolean("placeholder", &g.placeholder));
  BOREAS_RETURN_IF_ERROR(named.text("note", &g.note));
  if (g.idle_w > g.tdp_w) {
    return ctx.error(named.get("idle_w"), "idle_w of GPU type '" + g.name + "' exceeds its tdp_w",
                     "idle draw must be at most the TDP");
  }
  return g;
}

}  // namespace

Status add_catalog_yaml(const std::string& text, const std::string& file, GpuCatalog* catalog) {
  Result<YAML::Node> root = parse_yaml(text, file);
  if (!root.is_ok()) {
    return root.status();
  }
  const SpecContext ctx(file, nullptr);
  const MapReader top(ctx, *root, "GPU catalog");
  BOREAS_RETURN_IF_ERROR(top.check({"types"}));
  const YAML::Node types = top.get("types");
  if (!types.IsSequence()) {
    return ctx.error(types.IsDefined() ? types : *root, "GPU catalog needs a 'types' list",
                     "write 'types:' followed by '- name: ...' entries");
  }
  for (const auto& node : types) {
    Result<GpuType> g = read_type(ctx, node);
    if (!g.is_ok()) {
      return g.status();
    }
    const std::string name = g->name;
    if (!catalog->add(std::move(*g))) {
      return ctx.error(node, "GPU type '" + name + "' (or one of its aliases) is already defined",
                       "give the type a new name, or drop the duplicate alias");
    }
  }
  return Status::ok();
}

const GpuCatalog& builtin_gpu_catalog() {
  static const GpuCatalog catalog = [] {
    GpuCatalog c;
    const Status s = add_catalog_yaml(std::string(builtin_gpus_yaml()), "data/gpus.yaml", &c);
    // The embedded file is tested (gpu_catalog_test); failing here is a build defect.
    assert(s.is_ok() && "embedded data/gpus.yaml must parse");
    (void)s;
    return c;
  }();
  return catalog;
}

}  // namespace boreas::config
