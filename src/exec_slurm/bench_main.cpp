// Throughput of the Slurm executor on a live cluster (docs/PERFORMANCE.md, "Slurm"):
//   exec_slurm_bench NODES JOBS [SPAN]   (SLURM_CONF set; nodes named n1..nNODES with 8 h100 each)
// Launches JOBS held jobs through the executor (sbatch each), releases them all and times, per
// job, release -> RUNNING as squeue reports it (polled every 10 ms); then cancels them. SPAN 1
// (default): 1-GPU jobs, round robin over the nodes; SPAN > 1: gangs of SPAN whole nodes (8 GPUs
// each, one Slurm job over them), so JOBS * SPAN <= NODES lets all run at once.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "exec_slurm/slurm_executor.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

// Job j's nodes: one GPU on node j % nodes + 1, or SPAN whole nodes starting at node j * SPAN.
std::vector<boreas::server::NodeGpus> placement(int j, int nodes, int span) {
  if (span == 1) {
    return {{"n" + std::to_string(j % nodes + 1), {0}}};
  }
  std::vector<boreas::server::NodeGpus> out;
  for (int k = 0; k < span; ++k) {
    out.push_back({"n" + std::to_string((j * span + k) % nodes + 1), {0, 1, 2, 3, 4, 5, 6, 7}});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace boreas;
  if ((argc != 3 && argc != 4) || std::getenv("SLURM_CONF") == nullptr) {
    std::fprintf(stderr, "usage: SLURM_CONF=... exec_slurm_bench NODES JOBS [SPAN]\n");
    return 1;
  }
  const int nodes = std::atoi(argv[1]);
  const int jobs = std::atoi(argv[2]);
  const int span = argc == 4 ? std::atoi(argv[3]) : 1;
  if (nodes < 1 || jobs < 1 || span < 1 || span > nodes) {
    std::fprintf(stderr, "exec_slurm_bench: NODES, JOBS and SPAN must be >= 1 and SPAN <= NODES\n");
    return 1;
  }
  exec_slurm::SlurmExecutorOptions o;
  o.allow_root_jobs = true;  // the bench's jobs (`sleep`) run as whoever runs it, root included
  for (int i = 1; i <= nodes; ++i) {
    o.nodes["n" + std::to_string(i)] = {"n" + std::to_string(i), "h100"};
  }
  exec_slurm::SlurmExecutor exec(std::move(o));
  std::unordered_map<uint64_t, int> index;
  const auto t0 = Clock::now();
  for (int j = 0; j < jobs; ++j) {
    server::LaunchRequest r;
    r.job = JobId(static_cast<uint32_t>(j + 1));
    r.argv = {"sleep", "60"};
    r.placement = placement(j, nodes, span);
    r.stdout_path = "/dev/null";  // else Slurm writes slurm-ID.out into the current directory
    auto id = exec.launch(r);
    if (!id.is_ok()) {
      std::fprintf(stderr, "%s\n", id.status().message().c_str());
      return 1;
    }
    index[static_cast<uint64_t>(id->pid)] = j;
  }
  const auto t1 = Clock::now();
  std::vector<Clock::time_point> released(static_cast<size_t>(jobs));
  for (int j = 0; j < jobs; ++j) {
    (void)exec.release(JobId(static_cast<uint32_t>(j + 1)));
    released[static_cast<size_t>(j)] = Clock::now();
  }
  const auto t2 = Clock::now();
  const slurm::Client client({});
  std::vector<double> latency;
  std::vector<bool> seen(static_cast<size_t>(jobs), false);
  while (static_cast<int>(latency.size()) < jobs && Clock::now() - t2 < std::chrono::seconds(60)) {
    auto all = client.jobs();
    const auto now = Clock::now();
    for (const auto& sj : all.is_ok() ? *all : std::vector<slurm::SlurmJob>{}) {
      const auto it = index.find(sj.id);
      if (it != index.end() && sj.state == "RUNNING" && !seen[static_cast<size_t>(it->second)]) {
        seen[static_cast<size_t>(it->second)] = true;
        latency.push_back(ms(now - released[static_cast<size_t>(it->second)]));
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (int j = 0; j < jobs; ++j) {
    (void)exec.cancel(JobId(static_cast<uint32_t>(j + 1)));
  }
  std::sort(latency.begin(), latency.end());
  const auto pct = [&](double p) {
    return latency.empty() ? 0.0 : latency[static_cast<size_t>(p * (latency.size() - 1))];
  };
  std::printf("held submits through the executor: %d in %.0f ms = %.0f/s\n", jobs, ms(t1 - t0),
              jobs / (ms(t1 - t0) / 1000));
  std::printf("releases: %d in %.0f ms = %.0f/s\n", jobs, ms(t2 - t1), jobs / (ms(t2 - t1) / 1000));
  std::printf("release -> RUNNING (%zu of %d ran): median %.0f ms, p90 %.0f ms, max %.0f ms\n",
              latency.size(), jobs, pct(0.5), pct(0.9), pct(1.0));
  return static_cast<int>(latency.size()) == jobs ? 0 : 1;
}
