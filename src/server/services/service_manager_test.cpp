// ServiceManager against a real controller and local executor (replicas are `sleep`: nothing
// answers their load polls). What a service leaves when it is refused, and what a restart of the
// manager adopts and cancels. Scaling on real replicas: tests/server/live_services.sh.

#include "server/services/service_manager.h"

#include <gtest/gtest.h>

#include <thread>

#include "server/services/service_records.h"
#include "server/testing/controller_fixture.h"

namespace boreas::server {
namespace {

class ServiceManagerTest : public ControllerFixture {
 protected:
  void SetUp() override { start_controller(test_cluster(1, 4)); }
  void TearDown() override {
    services_.reset();
    ControllerFixture::TearDown();
  }
  // A new manager over the same controller and store, as after a daemon restart.
  void restart_manager() {
    services_.reset();
    registry_ = std::make_unique<MetricsRegistry>();
    services_ = std::make_unique<ServiceManager>(*ctl_, *store_, *registry_,
                                                 ServiceManagerOptions{.clock = wall_clock});
    ASSERT_TRUE(services_->recover().is_ok());
    services_->start();
  }
  ServiceConfig sleeper(const std::string& name, int32_t replicas, const std::string& queue = "default") {
    auto c = parse_service(
        R"({"name": ")" + name + R"(", "min_replicas": )" + std::to_string(replicas) +
        R"(, "max_replicas": 4, "replica": {"command": ["sleep", "30"], "gpus": 1, "queue": ")" + queue +
        R"("}})");
    EXPECT_TRUE(c.is_ok()) << c.status().message();
    return *c;
  }
  std::vector<LiveJob> active_jobs() {
    std::vector<LiveJob> out;
    for (const LiveJob& j : ctl_->jobs()) {
      if (!is_terminal(j.state) && !j.stopping) {
        out.push_back(j);
      }
    }
    return out;
  }

  std::unique_ptr<MetricsRegistry> registry_;
  std::unique_ptr<ServiceManager> services_;
};

// Without --queues the only queue is `default`: the first replica is refused, so is the service,
// and nothing is left behind (no row, no job).
TEST_F(ServiceManagerTest, RefusedServiceLeavesNothing) {
  restart_manager();
  auto made = services_->create("alice", sleeper("chat", 2, "inference"));
  ASSERT_FALSE(made.is_ok());
  EXPECT_NE(made.status().message().find("service chat: replica 0: $.queue: unknown queue `inference`"),
            std::string::npos)
      << made.status().message();
  EXPECT_TRUE(services_->list().empty());
  EXPECT_TRUE(load_services(*store_)->empty());
  EXPECT_TRUE(active_jobs().empty());
}

// Two replicas of `kept`, one of `gone` whose row vanishes (as a crash between submitting and
// storing leaves it): a new manager adopts kept's jobs with their indexes and ports and cancels
// gone's.
TEST_F(ServiceManagerTest, RestartAdoptsReplicasAndCancelsOrphans) {
  restart_manager();
  auto kept = services_->create("alice", sleeper("kept", 2));
  ASSERT_TRUE(kept.is_ok()) << kept.status().message();
  auto gone = services_->create("bob", sleeper("gone", 1));
  ASSERT_TRUE(gone.is_ok()) << gone.status().message();
  ASSERT_EQ(kept->replicas.size(), 2u);
  EXPECT_EQ(kept->replicas[0].index, 0);
  EXPECT_EQ(kept->replicas[1].index, 1);
  EXPECT_NE(kept->replicas[0].port, kept->replicas[1].port);
  const LiveJob first = *ctl_->job(JobId(kept->replicas[0].job));
  EXPECT_EQ(first.owner, "alice");
  EXPECT_EQ(first.request.name, "kept-0");
  EXPECT_EQ(first.request.env.at("BOREAS_SERVICE"), "kept");
  EXPECT_EQ(first.request.env.at("BOREAS_REPLICA_PORT"), std::to_string(kept->replicas[0].port));
  ASSERT_TRUE(store_->write_sync({{delete_service_row("gone")}}).is_ok());

  restart_manager();
  auto again = services_->get("kept");
  ASSERT_TRUE(again.is_ok());
  ASSERT_EQ(again->replicas.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(again->replicas[i].job, kept->replicas[i].job);
    EXPECT_EQ(again->replicas[i].index, kept->replicas[i].index);
    EXPECT_EQ(again->replicas[i].port, kept->replicas[i].port);
  }
  EXPECT_FALSE(services_->get("gone").is_ok());
  const JobId orphan(gone->replicas[0].job);
  for (int i = 0; i < 200 && !ctl_->job(orphan)->stopping && !is_terminal(ctl_->job(orphan)->state); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const LiveJob o = *ctl_->job(orphan);
  EXPECT_TRUE(o.stopping || o.state == JobState::kCancelled) << to_string(o.state);
}

// A replica whose command fails at once is replaced after a back-off that doubles (0.05, 0.1,
// 0.2, 0.4, 0.8 s here), not every 0.05 s poll: at most 6 jobs in 1.2 s instead of about 24, and
// the service says why.
TEST_F(ServiceManagerTest, FailingReplicasBackOff) {
  restart_manager();
  auto c =
      parse_service(R"({"name": "bad", "interval_s": 0.05, "replica": {"command": ["false"], "gpus": 1}})");
  ASSERT_TRUE(c.is_ok());
  ASSERT_TRUE(services_->create("alice", *c).is_ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  auto page = ctl_->list(JobQuery{});
  ASSERT_TRUE(page.is_ok());
  const auto jobs = std::count_if(page->jobs.begin(), page->jobs.end(),
                                  [](const LiveJob& j) { return j.request.name == "bad-0"; });
  EXPECT_GE(jobs, 2);
  EXPECT_LE(jobs, 6);
  EXPECT_LE(services_->get("bad")->replicas.size(), 1u);  // none while it waits, then the replacement
  const std::string error = services_->get("bad")->last_error;
  EXPECT_NE(error.find(" failed: "), std::string::npos) << error;
  EXPECT_NE(error.find(" in a row, the next replica in "), std::string::npos) << error;
}

}  // namespace
}  // namespace boreas::server
