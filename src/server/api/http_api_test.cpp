// Every route documented in docs/api/openapi.yaml exists and answers as documented.

#include "server/api/http_api.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <thread>

#include "server/api/tokens.h"
#include "server/services/service_manager.h"
#include "server/testing/controller_fixture.h"
#include "server/testing/fake_gpu_probe.h"

namespace boreas::server {
namespace {

class ApiTest : public ControllerFixture {
 protected:
  void SetUp() override {
    start_controller(test_cluster(2, 4));
    if (HasFatalFailure()) {
      return;
    }
    services_ = std::make_unique<ServiceManager>(*ctl_, *store_, metrics_, ServiceManagerOptions{.clock = wall_clock});
    ApiOptions options;
    options.allow_root_jobs = true;
    options.services = services_.get();
    api_ = std::make_unique<ApiServer>(*ctl_, *store_, metrics_, options);
    auto port = api_->bind("127.0.0.1", 0);
    ASSERT_TRUE(port.is_ok());
    port_ = *port;
    server_ = std::thread([this] { api_->run(); });
    auto t = create_token(*store_, {"root", Role::kAdmin, {}}, 0);
    ASSERT_TRUE(t.is_ok());
    token_ = t->token;
  }
  void TearDown() override {
    if (server_.joinable()) {
      api_->stop();
      server_.join();
    }
    ControllerFixture::TearDown();
  }
  httplib::Result send(const std::string& method, const std::string& path, bool auth,
                       const std::string& body = "{}") {
    httplib::Client c("127.0.0.1", port_);
    httplib::Headers h;
    if (auth) {
      h.emplace("Authorization", "Bearer " + token_);
    }
    return method == "get"      ? c.Get(path, h)
           : method == "delete" ? c.Delete(path, h)
                                : c.Post(path, h, body, "application/json");
  }
  uint32_t running_job() {
    SubmitRequest r;
    r.command = {"sleep", "30"};
    auto j = ctl_->submit("root", r);
    EXPECT_TRUE(j.is_ok());
    for (int i = 0; i < 500 && ctl_->job(j->id)->state != JobState::kRunning; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return j->id.value();
  }

  std::unique_ptr<ServiceManager> services_;
  std::unique_ptr<ApiServer> api_;
  std::thread server_;
  int port_ = 0;
  std::string token_;
};

std::string fill_path(std::string path, const std::string& id, const std::string& node,
                      const std::string& service = "chat") {
  for (const auto& [key, value] : {std::pair{"{id}", id}, std::pair{"{node}", node}, std::pair{"{name}", service}}) {
    if (auto at = path.find(key); at != std::string::npos) {
      path.replace(at, std::string(key).size(), value);
    }
  }
  return path;
}

bool documents(const YAML::Node& op, int code) { return bool(op["responses"][std::to_string(code)]); }

YAML::Node resolve(const YAML::Node& spec, const YAML::Node& schema) {
  if (!schema.IsMap() || !schema["$ref"]) {
    return schema;
  }
  const std::string ref = schema["$ref"].as<std::string>();
  return spec["components"]["schemas"][ref.substr(ref.rfind('/') + 1)];
}

// Adds the keys of `value`, at any depth, that `schema` does not document (objects whose schema
// lists no properties, like env, are free-form).
void undocumented(const YAML::Node& spec, const YAML::Node& named, const nlohmann::json& value,
                  const std::string& path, std::vector<std::string>& out) {
  const YAML::Node schema = resolve(spec, named);
  if (!schema.IsMap()) {
    return;
  }
  if (value.is_array() && schema["items"]) {
    for (const auto& item : value) {
      undocumented(spec, schema["items"], item, path + "[].", out);
    }
  }
  if (!value.is_object() || !schema["properties"]) {
    return;
  }
  for (auto it = value.cbegin(); it != value.cend(); ++it) {
    const YAML::Node property = schema["properties"][it.key()];
    if (!property) {
      out.push_back(path + it.key());
    } else {
      undocumented(spec, property, it.value(), path + it.key() + ".", out);
    }
  }
}

// The keys of a JSON answer that its documented schema (when the route names one) lacks.
std::vector<std::string> undocumented_keys(const YAML::Node& spec, const YAML::Node& op, int code,
                                           const std::string& body) {
  // yaml-cpp throws on indexing a missing node, so each level is checked.
  const YAML::Node response = op["responses"][std::to_string(code)];
  const YAML::Node content = response && response["content"] ? response["content"]["application/json"] : YAML::Node();
  std::vector<std::string> out;
  if (content && content["schema"]) {
    undocumented(spec, content["schema"], nlohmann::json::parse(body, nullptr, false), "", out);
  }
  return out;
}

TEST_F(ApiTest, EveryDocumentedRouteAnswersAsDocumented) {
  const YAML::Node spec = YAML::LoadFile(std::string(BOREAS_SOURCE_DIR) + "/docs/api/openapi.yaml");
  const std::string job_body = R"({"command": ["true"]})";
  const std::string service_body = R"({"name": "chat", "replica": {"command": ["sleep", "30"], "gpus": 1}})";
  int checked = 0;
  for (const auto& path : spec["paths"]) {
    for (const auto& method : path.second) {
      const std::string route = path.first.as<std::string>();
      const std::string verb = method.first.as<std::string>();
      const YAML::Node& op = method.second;
      SCOPED_TRACE(verb + " " + route);
      const std::string& body = route.rfind("/v1/services", 0) == 0 ? service_body : job_body;
      const std::string url = fill_path(route, std::to_string(running_job()), "node0");
      auto res = send(verb, url, true, body);
      ASSERT_TRUE(res);
      EXPECT_EQ(res->status / 100, 2) << res->body;
      EXPECT_TRUE(documents(op, res->status)) << res->status << " is not documented";
      EXPECT_EQ(undocumented_keys(spec, op, res->status, res->body), std::vector<std::string>{}) << res->body;
      const bool secured = !(op["security"] && op["security"].size() == 0);
      if (secured) {
        auto anon = send(verb, url, false, body);
        ASSERT_TRUE(anon);
        EXPECT_EQ(anon->status, 401);
        EXPECT_TRUE(documents(op, 401));
      }
      if (route.find('{') != std::string::npos && documents(op, 404)) {
        auto missing = send(verb, fill_path(route, "999", "nope", "nope"), true, body);
        ASSERT_TRUE(missing);
        EXPECT_EQ(missing->status, 404) << missing->body;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 19);
}

// NVML's latest sample shows on the GPUs of the node it describes (ApiOptions::telemetry_node),
// from the fake probe's fixed readings; other nodes and GPUs the probe does not report carry none.
TEST_F(ApiTest, NodesCarryTheLatestGpuSampleOfTheirMachine) {
  FakeGpuProbe probe;
  MetricsRegistry gpu_metrics;
  GpuTelemetry telemetry(probe, gpu_metrics, "host");
  telemetry.sample_once();
  ApiOptions options;
  options.telemetry = &telemetry;
  options.telemetry_node = "node1";
  MetricsRegistry api_metrics;
  ApiServer api(*ctl_, *store_, api_metrics, options);
  auto port = api.bind("127.0.0.1", 0);
  ASSERT_TRUE(port.is_ok());
  std::thread serving([&] { api.run(); });
  httplib::Client c("127.0.0.1", *port);
  auto res = c.Get("/v1/nodes", {{"Authorization", "Bearer " + token_}});
  api.stop();
  serving.join();
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const auto nodes = nlohmann::json::parse(res->body)["nodes"];
  ASSERT_EQ(nodes.size(), 2u);
  const auto& gpus = nodes[1]["gpu_usage"];
  EXPECT_EQ(gpus[0]["temperature_c"], 61);
  EXPECT_EQ(gpus[0]["power_w"], 312.5);
  EXPECT_EQ(gpus[0]["utilization"], 42);
  EXPECT_EQ(gpus[1]["temperature_c"], 35);
  EXPECT_EQ(gpus[1]["power_w"], 70.0);
  EXPECT_FALSE(gpus[2].contains("temperature_c"));
  EXPECT_FALSE(nodes[0]["gpu_usage"][0].contains("temperature_c"));
}

TEST_F(ApiTest, WhoamiNamesTheTokensRoleAndQueues) {
  auto t = create_token(*store_, {"vera", Role::kViewer, {"research"}}, 0);
  ASSERT_TRUE(t.is_ok());
  httplib::Client c("127.0.0.1", port_);
  auto res = c.Get("/v1/whoami", {{"Authorization", "Bearer " + t->token}});
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const auto body = nlohmann::json::parse(res->body);
  EXPECT_EQ(body["name"], "vera");
  EXPECT_EQ(body["role"], "viewer");
  EXPECT_EQ(body["queues"], nlohmann::json::array({"research"}));
}

TEST_F(ApiTest, RequestCounterHelpNamesItsLabels) {
  ASSERT_TRUE(send("get", "/healthz", false));
  const std::string sample = "boreas_http_requests_total{method=\"GET\",code=\"200\"}";
  std::string text = metrics_.render();
  for (int i = 0; i < 200 && text.find(sample) == std::string::npos; ++i) {  // counted after answering
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    text = metrics_.render();
  }
  EXPECT_NE(text.find(sample), std::string::npos) << text;
  EXPECT_NE(text.find("# HELP boreas_http_requests_total HTTP requests answered, by method and status code.\n"),
            std::string::npos);
}

TEST_F(ApiTest, BadBodiesAre400WithWhereAndTheDaemonKeepsServing) {
  const std::pair<std::string, std::string> cases[] = {
      {"{\"command\": [\"true\"], \"gpus\": 1.5}", "$.gpus"},
      {"{\"command\": [\"true\"], \"extra\": 1}", "$.extra: unknown field"},
      {"{\"command\": []}", "$.command"},
      {"[1, 2]", "expected a JSON object"},
      {"{\"command\": [\"true\"], \"gpus\": 99}", "can never fit"},
      {"\xff\xfe", "not valid JSON"},
  };
  for (const auto& [body, where] : cases) {
    auto res = send("post", "/v1/jobs", true, body);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 400) << body;
    EXPECT_NE(res->body.find(where), std::string::npos) << res->body;
  }
  auto big = send("post", "/v1/jobs", true, std::string(2 << 20, ' '));
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  auto health = send("get", "/healthz", false);
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
}

}  // namespace
}  // namespace boreas::server
