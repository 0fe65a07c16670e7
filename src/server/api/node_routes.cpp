// The nodes resource: GET /v1/nodes (with GPU usage and telemetry), drain and resume (docs/api/openapi.yaml).

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "server/api/exchange.h"
#include "server/api/http_api.h"
#include "server/api/http_util.h"

namespace boreas::server {
namespace {

using nlohmann::json;

json gpu_usage_json(const std::vector<uint32_t>& jobs) {
  json out = json::array();
  for (size_t g = 0; g < jobs.size(); ++g) {
    json gpu = {{"index", g}, {"busy", jobs[g] != 0}};
    if (jobs[g] != 0) {
      gpu["job"] = jobs[g];
    }
    out.push_back(std::move(gpu));
  }
  return out;
}

// The latest NVML sample of each GPU, on the entries of the node it describes.
void add_telemetry(json& gpu_usage, const std::vector<GpuSample>& samples) {
  for (const GpuSample& s : samples) {
    if (s.index < gpu_usage.size()) {
      json& gpu = gpu_usage[s.index];
      gpu["temperature_c"] = s.temperature_c;
      gpu["power_w"] = s.power_mw / 1000.0;
      gpu["utilization"] = s.utilization_pct;
    }
  }
}

}  // namespace

void ApiServer::add_node_routes() {
  http_->Get("/v1/nodes", [this](const httplib::Request& req, httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    if (!ex.allow(Action::kReadCluster, {}, "", "")) {
      return;
    }
    json out = json::array();
    for (const NodeView& n : controller_.nodes()) {
      json usage = gpu_usage_json(n.gpu_jobs);
      if (options_.telemetry != nullptr && n.name == options_.telemetry_node) {
        add_telemetry(usage, options_.telemetry->latest());
      }
      out.push_back({{"name", n.name}, {"gpu_type", n.gpu_type}, {"gpus", n.gpus}, {"free_gpus", n.free_gpus},
                     {"drained", n.drained}, {"gpu_usage", std::move(usage)}});
    }
    send_json(res, 200, {{"nodes", out}});
  });

  http_->Post(R"(/v1/nodes/([A-Za-z0-9._-]+)/(drain|resume))", [this](const httplib::Request& req,
                                                                      httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    const std::string node = req.matches[1].str();
    const std::string verb = req.matches[2].str();
    if (!ex.allow(Action::kDrainNode, {}, verb, "node/" + node)) {
      return;
    }
    Status s = controller_.set_drained(ex.caller(), node, verb == "drain");
    if (!s.is_ok()) {
      ex.fail(s, verb, "node/" + node);
      return;
    }
    send_json(res, 200, {{"name", node}, {"drained", verb == "drain"}});
  });
}

}  // namespace boreas::server
