#pragma once
// A controller over a real store (StoreFixture) and local executor in a temporary directory,
// started as the daemon starts it (recover, then start): what the API and service tests build on.
// TearDown cancels every job and stops the controller; a derived TearDown stops its own parts
// first.

#include <memory>

#include "server/driver/controller.h"
#include "server/exec/local_executor.h"
#include "server/telemetry/metrics.h"
#include "server/testing/store_fixture.h"
#include "server/testing/test_cluster.h"

namespace boreas::server {

class ControllerFixture : public StoreFixture {
 protected:
  // fifo on CLUSTER, any queue name, polled every 5 ms; jobs run under DIR/jobs with PATH only.
  void start_controller(const Cluster& cluster) {
    open_store();
    if (HasFatalFailure()) {
      return;
    }
    executor_ = std::make_unique<LocalExecutor>(
        LocalExecutorOptions{dir_.path() + "/jobs", Duration::millis(200), {"PATH=/usr/bin:/bin"}, true});
    ctl_ = std::make_unique<Controller>(
        ControllerConfig{cluster, test_scheduler(), std::nullopt, Duration::millis(5), wall_clock}, *store_,
        *executor_, metrics_);
    ASSERT_TRUE(ctl_->recover().is_ok());
    ctl_->start();
  }
  void TearDown() override {
    if (ctl_ == nullptr) {
      return;  // start_controller failed
    }
    for (const LiveJob& j : ctl_->jobs()) {
      (void)ctl_->cancel("root", j.id);
    }
    ctl_->stop();
  }

  MetricsRegistry metrics_;
  std::unique_ptr<LocalExecutor> executor_;
  std::unique_ptr<Controller> ctl_;
};

}  // namespace boreas::server
