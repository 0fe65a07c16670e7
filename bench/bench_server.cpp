// Live control plane benchmarks (docs/PERFORMANCE.md):
//  - durable submissions per second through the HTTP API with 16 and 8 concurrent clients;
//  - scheduling round latency at 1,000 nodes and 10,000 pending jobs.
// Jobs go to an executor that only pretends to run them, so the numbers measure the daemon.

#include <benchmark/benchmark.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

#include "server/api/http_api.h"
#include "server/api/tokens.h"
#include "server/driver/controller.h"
#include "server/testing/test_cluster.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

// Launches nothing; every job "runs" forever.
class NullExecutor final : public Executor {
 public:
  Result<ProcessIdentity> launch(const LaunchRequest&) override { return ProcessIdentity{1, 1}; }
  Status release(JobId) override { return Status::ok(); }
  Status abort(JobId) override { return Status::ok(); }
  AdoptOutcome adopt(const LaunchRequest&, ProcessIdentity) override { return {true, std::nullopt}; }
  Status cancel(JobId) override { return Status::ok(); }
  Status preempt(JobId) override { return Status::ok(); }
  std::vector<JobExit> poll(Time) override { return {}; }
  size_t running() const override { return 0; }
};

struct Daemon {
  explicit Daemon(uint32_t nodes, bool fsync_every_commit = true, const std::string& policy = "fifo") {
    store = Store::open(dir.path() + "/boreas.db", {.synchronous_full = fsync_every_commit}).value();
    ctl = std::make_unique<Controller>(
        ControllerConfig{test_cluster(nodes, 8), test_scheduler(policy), std::nullopt, Duration::millis(20),
                         wall_clock},
        *store, executor, metrics);
    (void)ctl->recover();
    ctl->start();
  }
  TempDir dir;
  MetricsRegistry metrics;
  NullExecutor executor;
  std::unique_ptr<Store> store;
  std::unique_ptr<Controller> ctl;
};

void BM_DurableSubmitHttp(benchmark::State& state) {
  Daemon d(1, state.range(1) != 0);
  ApiOptions options;
  options.allow_root_jobs = true;  // run as root: the token maps to no account
  ApiServer api(*d.ctl, *d.store, d.metrics, options);
  const int port = *api.bind("127.0.0.1", 0);
  std::thread server([&] { api.run(); });
  const std::string token = create_token(*d.store, {"bench", Role::kAdmin, {}}, 0)->token;
  const int n_clients = static_cast<int>(state.range(2));
  const int per_client = static_cast<int>(state.range(0));
  for (auto _ : state) {
    std::atomic<int> failures{0};
    std::vector<std::thread> clients;
    for (int c = 0; c < n_clients; ++c) {
      clients.emplace_back([&] {
        httplib::Client cli("127.0.0.1", port);
        cli.set_keep_alive(true);
        cli.set_tcp_nodelay(true);
        const httplib::Headers h{{"Authorization", "Bearer " + token}};
        for (int i = 0; i < per_client; ++i) {
          auto r = cli.Post("/v1/jobs", h, R"({"command":["true"],"gpus":8})", "application/json");
          if (!r || r->status != 201) {
            if (failures++ == 0) {
              std::fprintf(stderr, "submit failed: %s\n",
                           r ? (std::to_string(r->status) + " " + r->body).c_str()
                             : httplib::to_string(r.error()).c_str());
            }
          }
        }
      });
    }
    for (auto& t : clients) {
      t.join();
    }
    if (failures > 0) {
      state.SkipWithError("some submissions failed");
    }
  }
  state.SetItemsProcessed(state.iterations() * n_clients * per_client);
  state.counters["commits"] = static_cast<double>(d.store->transactions_committed());
  api.stop();
  server.join();
}
// Arguments: submits per client; 1 = fsync on every commit (synchronous=FULL, the default), 0 = WAL
// NORMAL; concurrent clients (issue 17's target is 8).
BENCHMARK(BM_DurableSubmitHttp)
    ->Args({250, 1, 16})
    ->Args({250, 0, 16})
    ->Args({500, 1, 8})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// 1,000 nodes × 8 GPUs, all busy with 8-GPU jobs, and 10,000 more pending: each round runs the
// policy on the controller's long-lived ClusterState and gives every pending job its reason (fifo,
// las, boreas). Nothing changes between rounds: the policy's and the controller's walks are measured.
void BM_ScheduleRound1000Nodes10kPending(benchmark::State& state, const std::string& policy) {
  Daemon d(1000, true, policy);
  SubmitRequest r;
  r.command = {"true"};
  r.gpus = 8;
  std::vector<std::thread> submitters;
  for (int t = 0; t < 16; ++t) {
    submitters.emplace_back([&] {
      for (int i = 0; i < 11000 / 16 + 1; ++i) {
        (void)d.ctl->submit("bench", r);
      }
    });
  }
  for (auto& t : submitters) {
    t.join();
  }
  std::vector<double> micros;
  for (auto _ : state) {
    micros.push_back(static_cast<double>(d.ctl->run_round().us()));
  }
  std::sort(micros.begin(), micros.end());
  state.counters["p50_ms"] = micros[micros.size() / 2] / 1000;
  state.counters["p99_ms"] = micros[micros.size() * 99 / 100] / 1000;
  state.counters["jobs"] = static_cast<double>(d.ctl->jobs().size());
}
BENCHMARK_CAPTURE(BM_ScheduleRound1000Nodes10kPending, fifo, std::string("fifo"))
    ->Iterations(200)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ScheduleRound1000Nodes10kPending, las, std::string("las"))
    ->Iterations(200)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ScheduleRound1000Nodes10kPending, boreas, std::string("boreas"))
    ->Iterations(200)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace boreas::server

BENCHMARK_MAIN();
