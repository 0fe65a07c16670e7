// `boreas serve`: the daemon (`boreas token` is in cmd_token.cpp).

#include <chrono>
#include <filesystem>
#include <iostream>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <csignal>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "cli/command.h"
#include "cli/sim_placement.h"
#include "cli/sim_tenancy.h"
#include "config/cluster_spec.h"
#include "core/version.h"
#include "exec_slurm/node_watch.h"
#include "exec_slurm/slurm_executor.h"
#include "policy/registry.h"
#include "server/api/http_api.h"
#include "server/driver/controller.h"
#include "server/exec/cgroup.h"
#include "server/exec/local_executor.h"
#include "server/services/service_manager.h"
#include "server/store/file_modes.h"
#include "server/store/store.h"
#include "server/telemetry/gpu_metrics.h"
#include "server/telemetry/gpu_probe.h"
#include "server/telemetry/json_log.h"

namespace boreas::cli {
namespace {

int64_t wall_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
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
  bool allow_root_jobs = false;
  std::string cgroup_root;
  std::string log_file;  // empty = stderr
  std::string executor = "local";  // or "slurm"
  std::string slurm_conf;          // empty: SLURM_CONF or /etc/slurm
  double retain_days = 0;          // 0 = ended jobs stay in the store for ever
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

// The cluster node whose GPUs NVML samples here: the node named like this host, else the only
// node of a one-node spec (the local executor's case); none with the Slurm executor, whose jobs
// run on other machines.
std::string telemetry_node(const Cluster& cluster, const std::string& executor) {
  if (executor == "slurm") {
    return "";
  }
  for (const Node& n : cluster.nodes) {
    if (n.name == host_name()) {
      return n.name;
    }
  }
  return cluster.nodes.size() == 1 ? cluster.nodes[0].name : "";
}

// The signals the daemon handles, blocked in every thread: one thread takes them with sigwait.
sigset_t daemon_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    sigaddset(&set, sig);
  }
  return set;
}

// Whether the pid written in the lock file is a live process.
bool lock_holder_alive(int fd) {
  char buf[32] = {};
  const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
  const long pid = n > 0 ? std::strtol(buf, nullptr, 10) : 0;
  return pid <= 0 || kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

// One daemon per data dir: an exclusive flock on DATA/lock, held by the open descriptor for the
// life of the process (the kernel drops it on any exit, kill -9 included). It names our pid.
Result<int> lock_data_dir(const std::string& dir) {
  const std::string path = dir + "/lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return io_error("cannot open " + path + ": " + std::strerror(errno) +
                    "; check that --data-dir exists and is writable");
  }
  // A daemon killed while it started a job's supervisor leaves that child holding a copy of the
  // lock until its exec closes it (milliseconds; longer on a loaded machine): while the pid in
  // the file is gone, wait up to 2 s for that instead of refusing.
  for (int i = 0; i < 200 && flock(fd, LOCK_EX | LOCK_NB) != 0 && !lock_holder_alive(fd); ++i) {
    usleep(10000);
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    char buf[32] = {};
    const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    std::string holder = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "unknown";
    holder.erase(holder.find_last_not_of(" \n") + 1);
    ::close(fd);
    return conflict("--data-dir " + dir + " is in use by another boreas serve (pid " + holder +
                    "); stop that daemon first, or give this one its own data dir");
  }
  const std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    ::close(fd);
    return io_error("cannot write " + path + ": " + std::strerror(errno));
  }
  return fd;
}

// SIGHUP: the queue file and the policy built from it again, against the cluster the daemon has.
// The API's token cache is dropped too (tokens are read again from the store on first use).
void reload(const ServeArgs& a, const Cluster& cluster, server::Controller& controller, server::ApiServer& api,
            server::JsonLog& log) {
  api.drop_token_cache();
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  auto options = policy_options(a, registry, cluster);
  auto scheduler = options.is_ok() ? registry.make(a.policy, *options)
                                   : Result<std::unique_ptr<policy::Scheduler>>(options.status());
  if (!scheduler.is_ok()) {
    log.error("reload", {{"signal", "SIGHUP"}, {"error", scheduler.status().message()},
                         {"kept", "the previous queues and policy"}});
    return;
  }
  std::optional<QueueTree> queues;
  if (options->tenancy.queues) {
    queues = *options->tenancy.queues;
  }
  const size_t n = queues ? queues->queues.size() : 0;
  controller.reconfigure(std::move(queues), std::move(*scheduler));
  log.info("reload", {{"signal", "SIGHUP"}, {"queues", n}, {"policy", a.policy},
                      {"tokens", "cache dropped; read again from the store"}});
}

// Waits for the signals blocked by daemon_signals(): SIGHUP reloads, SIGINT/SIGTERM stop the API
// (the caller then finishes queued commits and leaves jobs running for the next start to adopt).
std::thread handle_signals(const ServeArgs& a, const Cluster& cluster, server::Controller& controller,
                           server::ApiServer& api, server::JsonLog& log) {
  return std::thread([&a, &cluster, &controller, &api, &log] {
    const sigset_t set = daemon_signals();
    for (;;) {
      int sig = 0;
      if (sigwait(&set, &sig) != 0) {
        continue;
      }
      if (sig == SIGHUP) {
        reload(a, cluster, controller, api, log);
        continue;
      }
      log.info("shutdown", {{"signal", sig == SIGINT ? "SIGINT" : "SIGTERM"},
                            {"jobs", "left running for the next start to adopt"}});
      api.stop();
      return;
    }
  });
}

// The data dir closed to everyone but the daemon; a --cgroup-root checked before anything runs.
Status secure_setup(const ServeArgs& a) {
  BOREAS_RETURN_IF_ERROR(server::secure_data_dir(a.data_dir));
  if (a.cgroup_root.empty()) {
    return Status::ok();
  }
  BOREAS_RETURN_IF_ERROR(server::check_cgroup_root(a.cgroup_root));
  if (const std::string missing = server::enable_limit_controllers(a.cgroup_root); !missing.empty()) {
    std::cerr << "boreas serve: note: " << missing << " (docs/live.md, \"CPU and memory\")\n";
  }
  return Status::ok();
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
  o.allow_root_jobs = a.allow_root_jobs;
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
      server::LocalExecutorOptions{a.data_dir + "/jobs", Duration::from_seconds(a.grace_s), daemon_env(),
                                   a.allow_root_jobs, a.cgroup_root}));
}

int run_serve(const ServeArgs& a) {
  // Before any thread starts (store writer, GPU telemetry, HTTP pool), so every thread inherits
  // the mask and only handle_signals() ever sees these signals.
  const sigset_t signals = daemon_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  server::JsonLog log;
  auto listen = parse_listen(a.listen);
  Status logged = listen.is_ok() ? log.open(a.log_file) : listen.status();
  if (!logged.is_ok()) {
    return report_error(logged);
  }
  const auto nvml = server::open_nvml();
  auto cfg = load_config(a, nvml.get());
  if (!cfg.is_ok()) {
    return report_error(cfg.status());
  }
  if (Status s = secure_setup(a); !s.is_ok()) {
    return report_error(s);
  }
  auto lock = lock_data_dir(a.data_dir);
  if (!lock.is_ok()) {
    return report_error(lock.status());
  }
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
  server::add_process_metrics(metrics, std::string(version()), std::string(server::build_git_commit()));
  const auto telemetry = start_gpu_telemetry(nvml.get(), metrics, std::max(a.gpu_sample_s, 0.1));
  const Cluster cluster = cfg->cluster;
  server::Controller controller(std::move(*cfg), **store, **executor, metrics);
  controller.set_log(&log);
  controller.set_retention({Duration::from_seconds(a.retain_days * 86400), a.data_dir + "/jobs"});
  if (Status s = controller.recover(); !s.is_ok()) {
    return report_error(s);
  }
  server::ServiceManager services(controller, **store, metrics, {.clock = [] { return Time::from_micros(wall_us()); }});
  services.set_log(&log);
  if (Status s = services.recover(); !s.is_ok()) {
    return report_error(s);
  }
  server::ApiOptions api_options;
  api_options.allow_root_jobs = a.allow_root_jobs;
  api_options.jobs_dir = a.data_dir + "/jobs";
  api_options.telemetry = telemetry.get();
  api_options.telemetry_node = telemetry_node(cluster, a.executor);
  api_options.services = &services;
  server::ApiServer api(controller, **store, metrics, api_options);
  api.set_log(&log);
  auto port = api.bind(listen->first, listen->second);
  if (!port.is_ok()) {
    return report_error(port.status());
  }
  std::thread waiter = handle_signals(a, cluster, controller, api, log);
  controller.start();
  services.start();
  log.info("listening", {{"url", "http://" + listen->first + ":" + std::to_string(*port)}, {"pid", getpid()}});
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
  services.stop();
  controller.stop();
  pthread_kill(waiter.native_handle(), SIGTERM);  // in case the API stopped on its own
  waiter.join();
  log.info("stopped", {{"queued_commits", "finished"}});
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
  serve->add_option("--log-file", args->log_file,
                    "Append the JSON-lines log here instead of stderr (docs/live.md, Logs)");
  serve->add_option("--executor", args->executor, "Where jobs run: local (this host) or slurm (docs/live.md)")
      ->check(CLI::IsMember({"local", "slurm"}));
  serve->add_option("--slurm-conf", args->slurm_conf, "slurm.conf for --executor slurm (default: SLURM_CONF)");
  serve->add_option("--gpu-sample", args->gpu_sample_s,
                    "Seconds between NVML samples for the per-GPU metrics (when a driver is present)");
  serve->add_option("--retain-days", args->retain_days,
                    "Delete ended jobs (store rows and job directories) this many days after they "
                    "ended; 0 (default) keeps them (docs/live.md, History and retention)")
      ->check(CLI::Range(0.0, 36500.0));
  serve->add_flag("--allow-root-jobs", args->allow_root_jobs,
                  "As root, let jobs run as uid 0 (tokens without --unix-user, or mapped to root)");
  serve->add_option("--cgroup-root", args->cgroup_root,
                    "A cgroup v2 directory: each job gets its own cgroup there (docs/live.md, Security)");
  serve->callback([&runner, args] { runner.action = [args] { return run_serve(*args); }; });
}

}  // namespace

void add_serve_commands(CLI::App& app, Runner& runner) { add_daemon_command(app, runner); }

}  // namespace boreas::cli
