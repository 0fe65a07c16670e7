// `boreas serve` (the daemon) and `boreas token` (local admin commands against a data dir).

#include <chrono>
#include <filesystem>
#include <iostream>

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <thread>

#include "cli/command.h"
#include "cli/sim_placement.h"
#include "cli/sim_tenancy.h"
#include "config/cluster_spec.h"
#include "exec_slurm/node_watch.h"
#include "exec_slurm/slurm_executor.h"
#include "policy/registry.h"
#include "server/controller.h"
#include "server/gpu_metrics.h"
#include "server/gpu_probe.h"
#include "server/http_api.h"
#include "server/local_executor.h"
#include "server/store.h"
#include "server/tokens.h"

namespace boreas::cli {
namespace {

struct TokenArgs {
  std::string data_dir;
  std::string role = "user";
  std::string queues;
  std::string name;
};

int64_t wall_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int run_token_create(const TokenArgs& a) {
  auto role = server::parse_role(a.role);
  if (!role) {
    return report_error(invalid_argument("--role " + a.role +
                                         ": unknown role; use admin, queue-admin, user or viewer"));
  }
  std::error_code ec;
  std::filesystem::create_directories(a.data_dir, ec);
  auto store = server::Store::open(a.data_dir + "/boreas.db");
  if (!store.is_ok()) {
    return report_error(store.status());
  }
  const std::string name = a.name.empty() ? a.role : a.name;
  auto token = server::create_token(**store, {name, *role, server::split_queue_list(a.queues)}, wall_us());
  if (!token.is_ok()) {
    return report_error(token.status());
  }
  std::cout << *token << "\n";
  std::cerr << "boreas: token for " << name << " (" << a.role
            << "); it is shown only once, store it now\n";
  return kExitOk;
}

void add_token_commands(CLI::App& app, Runner& runner) {
  auto* token = app.add_subcommand("token", "Manage API tokens (local, against a data dir)");
  token->require_subcommand(1);
  auto* create = token->add_subcommand("create", "Create a token and print it once");
  auto args = std::make_shared<TokenArgs>();
  create->add_option("--data-dir", args->data_dir, "The daemon's data directory")->required();
  create->add_option("--role", args->role, "admin, queue-admin, user or viewer")->required();
  create->add_option("--queues", args->queues, "Comma-separated queues it belongs to (* = all)");
  create->add_option("--name", args->name, "Who the token is for (shown in the audit log)");
  create->callback([&runner, args] { runner.action = [args] { return run_token_create(*args); }; });
}

struct ServeArgs {
  std::string cluster;
  TenancyArgs tenancy;  // --queues, --min-runtime, --fair-share-half-life (as `boreas sim`)
  PlacementArgs placement;
  std::string policy = "fifo";
  std::string data_dir;
  std::string listen = "127.0.0.1:8080";
  double grace_s = 10;
  double gpu_sample_s = 5;
  std::string executor = "local";  // or "slurm"
  std::string slurm_conf;          // empty: SLURM_CONF or /etc/slurm
};

Result<std::pair<std::string, int>> parse_listen(const std::string& s) {
  const auto colon = s.rfind(':');
  try {
    if (colon != std::string::npos) {
      const int port = std::stoi(s.substr(colon + 1));
      if (port >= 0 && port <= 65535) {
        return std::make_pair(s.substr(0, colon), port);
      }
    }
  } catch (const std::exception&) {
  }
  return invalid_argument("--listen " + s + ": expected HOST:PORT, e.g. 127.0.0.1:8080 (port 0 = any)");
}

std::vector<std::string> daemon_env() {
  std::vector<std::string> env;
  for (const char* name : {"PATH", "HOME", "LANG", "USER"}) {
    if (const char* v = std::getenv(name)) {
      env.push_back(std::string(name) + "=" + v);
    }
  }
  return env;
}

// The policy's options from the same flags and helpers as `boreas sim`, so the daemon's policy
// sees the queue tree the controller validates submissions against.
Result<policy::PolicyOptions> policy_options(const ServeArgs& a, const policy::PolicyRegistry& registry,
                                             const Cluster& cluster) {
  policy::PolicyOptions options;
  BOREAS_RETURN_IF_ERROR(registry.check_policy(a.policy).with_context("--policy: "));
  BOREAS_RETURN_IF_ERROR(apply_placement_options(a.placement, registry, options));
  auto tenancy = load_tenancy(a.tenancy, cluster);
  if (!tenancy.is_ok()) {
    return tenancy.status();
  }
  options.tenancy = std::move(*tenancy);
  return options;
}

std::string host_name() {
  char buf[256] = {};
  return gethostname(buf, sizeof(buf) - 1) == 0 ? std::string(buf) : std::string("localhost");
}

// Loads everything the daemon needs before it binds, so a bad spec fails fast with its location.
// With an NVIDIA driver, this machine's node takes the GPUs NVML finds (before quotas and the
// policy are built from the cluster).
Result<server::ControllerConfig> load_config(const ServeArgs& a, server::GpuProbe* nvml) {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  auto cluster = config::load_cluster_file(a.cluster);
  if (!cluster.is_ok()) {
    return cluster.status();
  }
  if (nvml != nullptr) {
    const std::vector<server::GpuDevice> found = nvml->devices();
    if (const std::string said = server::adopt_discovered_gpus(*cluster, found, host_name()); !said.empty()) {
      std::cerr << "boreas: " << said << std::endl;
    }
  }
  auto options = policy_options(a, registry, *cluster);
  if (!options.is_ok()) {
    return options.status();
  }
  auto scheduler = registry.make(a.policy, *options);
  if (!scheduler.is_ok()) {
    return scheduler.status().with_context("--policy: ");
  }
  server::ControllerConfig cfg{std::move(*cluster), std::move(*scheduler), std::nullopt, Duration::millis(20),
                               [] { return Time::from_micros(wall_us()); }};
  if (options->tenancy.queues) {
    cfg.queues = *options->tenancy.queues;
  }
  return cfg;
}

// Per-GPU gauges from NVML when a driver is present; nullptr (and no such metrics) otherwise.
std::unique_ptr<server::GpuTelemetry> start_gpu_telemetry(server::GpuProbe* probe,
                                                          server::MetricsRegistry& metrics,
                                                          double interval_s) {
  if (probe == nullptr) {
    return nullptr;
  }
  auto telemetry = std::make_unique<server::GpuTelemetry>(*probe, metrics, host_name());
  telemetry->start(Duration::from_seconds(interval_s));
  return telemetry;
}

// Blocks SIGINT/SIGTERM in every thread; one thread waits for them and stops the server.
std::thread stop_on_signal(server::ApiServer& api) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return std::thread([set, &api] {
    int sig = 0;
    sigwait(&set, &sig);
    api.stop();
  });
}

// --executor slurm: the spec's nodes must be Slurm's (docs/live.md, "Slurm").
Result<std::unique_ptr<server::Executor>> slurm_executor(const ServeArgs& a, const Cluster& cluster,
                                                        exec_slurm::NodeMap* map_out) {
  const slurm::Client client({a.slurm_conf});
  BOREAS_RETURN_IF_ERROR(client.ping());
  auto nodes = client.nodes();
  auto topology = nodes.is_ok() ? client.topology() : Result<std::vector<slurm::SlurmSwitch>>(nodes.status());
  if (!topology.is_ok()) {
    return topology.status();
  }
  auto map = exec_slurm::map_nodes(cluster, *nodes, *topology);
  if (!map.is_ok()) {
    return map.status().with_context("--executor slurm: " + a.cluster + " disagrees with Slurm: ");
  }
  exec_slurm::SlurmExecutorOptions o;
  o.client.slurm_conf = a.slurm_conf;
  o.jobs_dir = a.data_dir + "/jobs";
  o.grace = Duration::from_seconds(a.grace_s);
  o.nodes = *map;
  *map_out = std::move(*map);
  return std::unique_ptr<server::Executor>(std::make_unique<exec_slurm::SlurmExecutor>(std::move(o)));
}

Result<std::unique_ptr<server::Executor>> make_executor(const ServeArgs& a, const Cluster& cluster,
                                                       exec_slurm::NodeMap* slurm_nodes) {
  if (a.executor == "slurm") {
    return slurm_executor(a, cluster, slurm_nodes);
  }
  if (a.executor != "local") {
    return invalid_argument("--executor " + a.executor + ": expected local or slurm");
  }
  return std::unique_ptr<server::Executor>(std::make_unique<server::LocalExecutor>(
      server::LocalExecutorOptions{a.data_dir + "/jobs", Duration::from_seconds(a.grace_s), daemon_env()}));
}

int run_serve(const ServeArgs& a) {
  auto listen = parse_listen(a.listen);
  const auto nvml = server::open_nvml();
  auto cfg = listen.is_ok() ? load_config(a, nvml.get()) : Result<server::ControllerConfig>(listen.status());
  if (!cfg.is_ok()) {
    return report_error(cfg.status());
  }
  std::error_code ec;
  std::filesystem::create_directories(a.data_dir + "/jobs", ec);
  auto store = server::Store::open(a.data_dir + "/boreas.db");
  if (!store.is_ok()) {
    return report_error(store.status());
  }
  exec_slurm::NodeMap slurm_nodes;
  auto executor = make_executor(a, cfg->cluster, &slurm_nodes);
  if (!executor.is_ok()) {
    return report_error(executor.status());
  }
  server::MetricsRegistry metrics;
  const auto telemetry = start_gpu_telemetry(nvml.get(), metrics, std::max(a.gpu_sample_s, 0.1));
  server::Controller controller(std::move(*cfg), **store, **executor, metrics);
  if (Status s = controller.recover(); !s.is_ok()) {
    return report_error(s);
  }
  server::ApiServer api(controller, **store, metrics);
  auto port = api.bind(listen->first, listen->second);
  if (!port.is_ok()) {
    return report_error(port.status());
  }
  std::thread waiter = stop_on_signal(api);
  controller.start();
  std::unique_ptr<exec_slurm::NodeWatcher> watcher;  // Slurm's down/drained nodes -> drained here
  if (a.executor == "slurm") {
    watcher = std::make_unique<exec_slurm::NodeWatcher>(controller, slurm::ClientOptions{a.slurm_conf},
                                                        std::move(slurm_nodes), Duration::seconds(1));
    watcher->start();
  }
  std::cout << "boreas: listening on http://" << listen->first << ":" << *port << std::endl;
  api.run();
  if (watcher) {
    watcher->stop();
  }
  controller.stop();
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  return kExitOk;
}

void add_daemon_command(CLI::App& app, Runner& runner) {
  auto* serve = app.add_subcommand("serve", "Run the live control plane (HTTP API, docs/live.md)");
  auto args = std::make_shared<ServeArgs>();
  serve->add_option("--cluster", args->cluster, "Cluster spec (YAML)")->required();
  serve->add_option("--policy", args->policy, "Scheduling policy (see `boreas sim --help`)");
  add_queue_options(serve, args->tenancy);  // without --queues any queue name is accepted
  add_placement_options(serve, args->placement);
  serve->add_option("--data-dir", args->data_dir, "Where the store and job logs live")->required();
  serve->add_option("--listen", args->listen, "HOST:PORT to listen on; port 0 picks a free one");
  serve->add_option("--grace", args->grace_s, "Seconds between SIGTERM/SIGUSR1 and the next step");
  serve->add_option("--executor", args->executor, "Where jobs run: local (this host) or slurm (docs/live.md)")
      ->check(CLI::IsMember({"local", "slurm"}));
  serve->add_option("--slurm-conf", args->slurm_conf, "slurm.conf for --executor slurm (default: SLURM_CONF)");
  serve->add_option("--gpu-sample", args->gpu_sample_s,
                    "Seconds between NVML samples for the per-GPU metrics (when a driver is present)");
  serve->callback([&runner, args] { runner.action = [args] { return run_serve(*args); }; });
}

}  // namespace

void add_serve_commands(CLI::App& app, Runner& runner) {
  add_daemon_command(app, runner);
  add_token_commands(app, runner);
}

}  // namespace boreas::cli
