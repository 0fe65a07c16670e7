#include "report/synthetic_run.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace boreas::report {
namespace {

void write_jobs_and_runs(const std::filesystem::path& dir, uint64_t seed, const SyntheticRunSize& size) {
  std::ofstream jobs(dir / "jobs.csv");
  std::ofstream runs(dir / "runs.csv");
  jobs << "job_id,name,queue,user,gpus,submit_s,first_start_s,end_s,jct_s,queue_s,preemptions,gpu_seconds,state,"
          "pending_reason\n";
  runs << "job_id,run,start_s,end_s,nodes,gpus,end_reason\n";
  uint64_t x = seed;
  for (int64_t j = 0; j < size.jobs; ++j) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;  // a 64-bit LCG: fast and repeatable
    const int64_t submit = j * 94;
    const auto wait = static_cast<int64_t>((x >> 33) % 7200);
    const int64_t run = 60 + static_cast<int64_t>((x >> 13) % 86400);
    const auto node = static_cast<int64_t>((x >> 45) % static_cast<uint64_t>(size.nodes));
    jobs << j << ",job" << j << ",vc" << (j % 14) << ",u" << (j % 300) << ",1," << submit << ","
         << submit + wait << "," << submit + wait + run << "," << wait + run << "," << wait << ",0," << run
         << ",completed,\n";
    runs << j << ",0," << submit + wait << ".5," << submit + wait + run << ".25,r" << node / 11 << "-n" << node
         << ",1,completed\n";
  }
}

}  // namespace

void write_synthetic_policy(const std::string& dir_text, const std::string& policy, uint64_t seed,
                            const SyntheticRunSize& size) {
  const std::filesystem::path dir(dir_text);
  std::filesystem::create_directories(dir);
  write_jobs_and_runs(dir, seed, size);
  std::ofstream series(dir / "timeseries.csv");
  series << "time_s,allocated_gpus,running_jobs,pending_jobs,pending_gpus\n";
  for (int64_t i = 0; i < size.samples; ++i) {
    series << i * 300 << "," << (i * 7) % 2000 << "," << (i * 3) % 900 << "," << i % 50 << "," << i % 80 << "\n";
  }
  std::ofstream(dir / "summary.json") << nlohmann::json{{"policy", policy}, {"gpus", 2490}}.dump();
}

}  // namespace boreas::report
