#include "sim/output.h"

#include <fmt/compile.h>
#include <fmt/format.h>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "sim/run_nodes.h"
#include "sim/series_columns.h"

namespace boreas::sim {

namespace {

// format_seconds' text, appended to `out`.
void append_seconds(fmt::memory_buffer& out, Time t, Time origin) {
  const int64_t us = (t - origin).us();
  const int64_t whole = us / 1'000'000;
  const int64_t frac = us % 1'000'000;
  if (frac == 0) {
    fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}"), whole);
    return;
  }
  const bool negative = us < 0;
  if (negative) {
    out.push_back('-');
  }
  fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}.{:06d}"), std::abs(whole), std::abs(frac));
}

}  // namespace

std::string format_seconds(Time t, Time origin) {
  fmt::memory_buffer out;
  append_seconds(out, t, origin);
  return fmt::to_string(out);
}

namespace {

// Only with physics on, so that runs without it keep their files byte-identical.
void add_physics_json(nlohmann::ordered_json& j, const Summary& s) {
  if (!s.physics) {
    return;
  }
  const PhysicsTotals& p = *s.physics;
  j["energy_it_kwh"] = p.energy_it_kwh;
  j["energy_facility_kwh"] = p.energy_facility_kwh;
  j["avg_pue"] = s.avg_pue;
  j["throttled_gpu_hours"] = p.throttled_gpu_hours;
  j["throttle_loss_gpu_hours"] = p.throttle_loss_gpu_hours;
  j["failures"] = p.failures;
  j["interrupted_runs"] = p.interrupted_runs;
  j["lost_gpu_hours"] = p.lost_gpu_hours;
  j["checkpoint_overhead_gpu_hours"] = p.checkpoint_overhead_gpu_hours;
  j["spot_reclaims"] = p.spot_reclaims;
  j["down_gpu_hours"] = p.down_gpu_hours;
  j["cost_usd"] = p.cost_usd;
  j["effective_utilization"] = s.effective_utilization;
  j["allocated_utilization"] = s.allocated_utilization;
  j["energy_facility_kwh_window"] = s.energy_facility_kwh_window;
  j["energy_kwh_per_ref_gpu_hour"] = s.energy_kwh_per_ref_gpu_hour;
  j["cost_usd_per_ref_gpu_hour"] = s.cost_usd_per_ref_gpu_hour;
  j["recoveries"] = s.recoveries;
  j["recovery_time_mean_s"] = s.recovery_time_mean_s;
  j["recovery_time_p95_s"] = s.recovery_time_p95_s;
  for (const auto& [name, q] : s.queues) {
    j["queues"][name]["cost_usd"] = q.cost_usd;
    j["queues"][name]["energy_kwh"] = q.energy_kwh;
  }
}

// Only when some job names a model class (Summary::job_classes).
void add_job_classes_json(nlohmann::ordered_json& j, const Summary& s) {
  if (s.job_classes.empty()) {
    return;
  }
  auto& out = j["job_classes"] = nlohmann::ordered_json::object();
  for (const auto& [name, c] : s.job_classes) {
    out[name] = {{"jobs", c.jobs}, {"avg_jct_s", c.avg_jct_s}, {"gpu_hours", c.gpu_hours}};
    out[name]["gpu_share"] = nlohmann::ordered_json::object();
    for (const auto& [type, share] : c.gpu_share) {
      out[name]["gpu_share"][type] = share;
    }
  }
}

nlohmann::ordered_json slowdowns(double p50, double p95, double p99) {
  return {{"slowdown_p50", p50}, {"slowdown_p95", p95}, {"slowdown_p99", p99}};
}

// The metrics that judge a policy (docs/formats/sim-output.md, "Metrics that judge policies").
void add_judging_json(nlohmann::ordered_json& j, const Summary& s) {
  j["window_start_s"] = s.window_start_s;
  j["window_end_s"] = s.window_end_s;
  j["window_utilization"] = s.window_utilization;
  j["work_utilization"] = s.work_utilization;
  j["idle_gpu_hours_while_waiting"] = s.idle_gpu_hours_while_waiting;
  j["max_queue_s"] = s.max_queue_s;
  j.update(slowdowns(s.slowdown_p50, s.slowdown_p95, s.slowdown_p99));
  j["completed_ref_gpu_hours"] = s.completed_ref_gpu_hours;
  j["fairness_shortfall_gpu_hours"] = s.fairness_shortfall_gpu_hours;
  j["fairness_shortfall_share"] = s.fairness_shortfall_share;
}

nlohmann::ordered_json queue_json(const QueueSummary& q) {
  nlohmann::ordered_json out = {{"jobs", q.jobs},
                                {"avg_jct_s", q.avg_jct_s},
                                {"avg_queue_s", q.avg_queue_s},
                                {"gpu_share", q.gpu_share},
                                {"guarantee_share", q.guarantee_share}};
  out.update(slowdowns(q.slowdown_p50, q.slowdown_p95, q.slowdown_p99));
  out["entitled_gpu_hours"] = q.entitled_gpu_hours;
  out["fairness_shortfall_gpu_hours"] = q.fairness_shortfall_gpu_hours;
  return out;
}

nlohmann::ordered_json summary_json(const RunOutput& run, const OutputInfo& info, const Cluster& cluster) {
  const Summary& s = run.summary;
  nlohmann::ordered_json j;
  j["policy"] = run.policy;
  j["placement"] = run.placement;
  j["cluster"] = info.cluster.empty() ? cluster.name : info.cluster;
  j["trace"] = info.trace;
  j["seed"] = info.seed;
  j["reference_gpu"] = info.reference_gpu;
  j["reference_gpu_rule"] = info.reference_gpu_why;
  j["offered_load"] = info.offered_load;
  j["gpus"] = cluster.gpu_count();
  j["jobs"] = s.jobs;
  j["dropped_jobs"] = info.dropped_jobs;
  j["completed_jobs"] = s.completed;
  j["avg_jct_s"] = s.avg_jct_s;
  j["p50_jct_s"] = s.p50_jct_s;
  j["p95_jct_s"] = s.p95_jct_s;
  j["p99_jct_s"] = s.p99_jct_s;
  j["avg_queue_s"] = s.avg_queue_s;
  j["multi_node_jobs"] = s.multi_node_jobs;
  j["avg_jct_multi_node_s"] = s.avg_jct_multi_node_s;
  j["makespan_s"] = s.makespan_s;
  j["makespan_utilization"] = s.utilization;
  j["preemptions"] = s.preemptions;
  j["wall_time_s"] = run.wall_time_s;
  j["events"] = run.result.events;
  j["wakeups"] = run.result.wakeups;
  j["scheduling_rounds"] = run.result.rounds;
  j["quota_violation_gpu_seconds"] = s.quota_violation_gpu_seconds;
  j["preemptions_per_job_p99"] = s.preemptions_per_job_p99;
  add_judging_json(j, s);
  auto& queues = j["queues"] = nlohmann::ordered_json::object();
  for (const auto& [name, q] : s.queues) {
    queues[name] = queue_json(q);
  }
  auto& classes = j["priority_classes"] = nlohmann::ordered_json::object();
  for (const auto& [name, c] : s.classes) {
    classes[name] = {{"jobs", c.jobs}, {"avg_jct_s", c.avg_jct_s}};
    classes[name].update(slowdowns(c.slowdown_p50, c.slowdown_p95, c.slowdown_p99));
  }
  add_physics_json(j, s);
  add_job_classes_json(j, s);
  return j;
}

// Quotes a CSV field only when it needs it (append_csv_field, as a string).
std::string csv(std::string_view s) {
  fmt::memory_buffer out;
  append_csv_field(out, s);
  return fmt::to_string(out);
}

// Why the job never started (engine) and, when the policy says, why it waited, into `out`.
void pending_reason(const SimResult& result, JobId job, std::string& out) {
  out.assign(to_string(result.never_started[job.value()]));
  if (job.value() < result.pending_reasons.size() && !result.pending_reasons[job.value()].empty()) {
    out += out.empty() ? "" : "; ";
    out += result.pending_reasons[job.value()];
  }
}

// One jobs.csv line; `reason` is scratch.
void append_job(fmt::memory_buffer& out, const JobSpec& j, const SimResult& result, const SymbolTable& sym,
                std::string& reason) {
  const Time origin = result.first_submit;
  const state::JobRecord& r = result.jobs[j.id.value()];
  const bool ended = r.state == JobState::kCompleted || r.state == JobState::kFailed;
  const auto to = std::back_inserter(out);
  fmt::format_to(to, FMT_COMPILE("{},"), j.id.value());
  append_csv_field(out, sym.view(j.name));
  out.push_back(',');
  append_csv_field(out, sym.view(j.queue));
  out.push_back(',');
  append_csv_field(out, sym.view(j.user));
  fmt::format_to(to, FMT_COMPILE(",{},"), j.gpus);
  append_seconds(out, j.submit, origin);
  out.push_back(',');
  if (!r.first_start.is_never()) {
    append_seconds(out, r.first_start, origin);
  }
  out.push_back(',');
  if (ended) {
    append_seconds(out, r.end, origin);
  }
  out.push_back(',');
  if (ended) {
    append_seconds(out, origin + (r.end - j.submit), origin);
  }
  out.push_back(',');
  append_seconds(out, origin + r.pending_total, origin);
  fmt::format_to(to, FMT_COMPILE(",{},{},{},"), r.preemptions, r.run_time.to_seconds() * j.gpus,
                 to_string(r.state));
  pending_reason(result, j.id, reason);
  append_csv_field(out, reason);
  out.push_back('\n');
}

constexpr size_t kFlushBytes = 1 << 16;

// Lines are formatted into one buffer and written in blocks of ≈ 64 KB (a stream insertion and a
// string per field cost more than the formatting).
void write_jobs(std::ostream& os, const RunOutput& run, std::span<const JobSpec> jobs,
                const SymbolTable& sym) {
  os << "job_id,name,queue,user,gpus,submit_s,first_start_s,end_s,jct_s,queue_s,preemptions,gpu_seconds,"
        "state,"
        "pending_reason\n";
  fmt::memory_buffer out;
  std::string reason;
  for (const JobSpec& j : jobs) {
    append_job(out, j, run.result, sym, reason);
    if (out.size() >= kFlushBytes) {
      os.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
    }
  }
  os.write(out.data(), static_cast<std::streamsize>(out.size()));
}

void write_timeseries(std::ostream& os, const RunOutput& run, const std::vector<SeriesColumn>& extra) {
  os << "time_s,allocated_gpus,running_jobs,pending_jobs,pending_gpus";
  for (const SeriesColumn& c : extra) {
    os << ',' << csv(c.name);
  }
  os << '\n';
  // Rows are formatted into one buffer and written in blocks: a stream insertion per field, and a
  // string per extra column, cost more than the numbers' formatting (≈ 30 columns with a queue tree).
  fmt::memory_buffer out;
  auto to = std::back_inserter(out);
  std::vector<ColumnText> texts(extra.size());
  for (size_t i = 0; i < run.result.samples.size(); ++i) {
    const Sample& s = run.result.samples[i];
    append_seconds(out, s.time, run.result.first_submit);
    fmt::format_to(to, ",{},{},{},{}", s.allocated_gpus, s.running_jobs, s.pending_jobs, s.pending_gpus);
    for (size_t k = 0; k < extra.size(); ++k) {
      texts[k].append(out, extra[k].values[i], extra[k].decimals);
    }
    out.push_back('\n');
    if (out.size() >= kFlushBytes) {
      os.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
    }
  }
  os.write(out.data(), static_cast<std::streamsize>(out.size()));
}

std::string_view end_reason(JobState s) {
  switch (s) {
    case JobState::kPreempted:
      return "preempted";
    case JobState::kFailed:
      return "failed";
    case JobState::kCancelled:
      return "cancelled";
    default:
      return "completed";
  }
}

void append_run(fmt::memory_buffer& out, const RunRecord& r, RunNodesField& nodes, Time origin) {
  fmt::format_to(std::back_inserter(out), FMT_COMPILE("{},{},"), r.job.value(), r.run);
  append_seconds(out, r.start, origin);
  out.push_back(',');
  if (!r.end.is_never()) {
    append_seconds(out, r.end, origin);
  }
  out.push_back(',');
  nodes.append(out, r.gpus);
  fmt::format_to(std::back_inserter(out), FMT_COMPILE(",{},{}\n"), r.gpus.size(),
                 r.end.is_never() ? std::string_view() : end_reason(r.end_state));
}

// Lines are formatted into one buffer and written in blocks of ≈ 64 KB.
void write_runs(std::ostream& os, const RunOutput& run, const Cluster& cluster) {
  os << "job_id,run,start_s,end_s,nodes,gpus,end_reason\n";
  RunNodesField nodes(cluster);
  fmt::memory_buffer out;
  for (const RunRecord& r : run.result.runs) {
    append_run(out, r, nodes, run.result.first_submit);
    if (out.size() >= kFlushBytes) {
      os.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
    }
  }
  os.write(out.data(), static_cast<std::streamsize>(out.size()));
}

template <typename Writer>
Status write_file(const std::filesystem::path& path, Writer writer) {
  std::ofstream os(path, std::ios::binary);
  if (!os) {
    return io_error(path.string() + ": cannot open for writing; check the --out folder is writable");
  }
  writer(os);
  os.flush();
  if (!os) {
    return io_error(path.string() + ": write failed (disk full?)");
  }
  return Status::ok();
}

// Per sample and zone: power and GPU temperatures (physics runs only).
void write_zones(std::ostream& os, const RunOutput& run, const Cluster& cluster) {
  os << "time_s,zone,power_kw,mean_gpu_c,max_gpu_c,throttled_gpus\n";
  for (const ZoneSample& z : run.result.zone_samples) {
    os << format_seconds(z.time, run.result.first_submit) << ',' << csv(cluster.zones[z.zone].name) << ','
       << fmt::format("{:.3f},{:.2f},{:.2f},{}", z.power_kw, z.mean_gpu_c, z.max_gpu_c, z.throttled_gpus)
       << '\n';
  }
}

}  // namespace

std::string summary_text(const RunOutput& run, const OutputInfo& info, const Cluster& cluster) {
  return summary_json(run, info, cluster).dump(2);
}

Status write_run(const std::string& policy_dir, const RunOutput& run, const OutputInfo& info,
                 const Cluster& cluster, std::span<const JobSpec> jobs, const SymbolTable& symbols) {
  std::error_code ec;
  const std::filesystem::path dir(policy_dir);
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return io_error(policy_dir + ": cannot create folder: " + ec.message());
  }
  BOREAS_RETURN_IF_ERROR(write_file(dir / "summary.json", [&](std::ostream& os) {
    os << summary_text(run, info, cluster) << '\n';
  }));
  BOREAS_RETURN_IF_ERROR(
      write_file(dir / "jobs.csv", [&](std::ostream& os) { write_jobs(os, run, jobs, symbols); }));
  BOREAS_RETURN_IF_ERROR(
      write_file(dir / "timeseries.csv", [&](std::ostream& os) {
        write_timeseries(os, run, series_columns(run, cluster, jobs, symbols));
      }));
  if (run.result.physics) {
    BOREAS_RETURN_IF_ERROR(
        write_file(dir / "zones.csv", [&](std::ostream& os) { write_zones(os, run, cluster); }));
  }
  return write_file(dir / "runs.csv", [&](std::ostream& os) { write_runs(os, run, cluster); });
}

}  // namespace boreas::sim
