// `boreas trace stats|convert|synth` (docs/formats/trace.md, readers.md, synth.md).
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/trace_fit.h"
#include "config/cluster_spec.h"
#include "trace/native.h"
#include "trace/stats.h"
#include "trace/synth.h"
#include "trace/trace.h"
#include "trace/transform.h"

namespace boreas::cli {
namespace {

struct InputFlags {
  std::string path;
  std::string format = "auto";
  std::string map;
  std::string on_error = "fail";
};

void add_input_flags(CLI::App* cmd, InputFlags& in, const char* path_name) {
  cmd->add_option(path_name, in.path, "Trace file (.gz read transparently)")->required();
  cmd->add_option("--format", in.format, "auto, native, native-csv, philly, helios, alibaba, csv, swf, slurm");
  cmd->add_option("--map", in.map, "Generic CSV column map, e.g. submit=t,duration=d:min,gpus=g");
  cmd->add_option("--on-error", in.on_error, "fail (default) or skip bad lines and report them")
      ->check(CLI::IsMember({"fail", "skip"}));
}

void print_report(const trace::ReadReport& r) {
  for (const auto& [reason, n] : r.skipped_by_reason) {
    std::cerr << "skipped " << n << " line(s): " << reason << " (first at "
              << r.first_location_by_reason.at(reason) << ")\n";
  }
  for (const auto& [reason, n] : r.excluded_by_reason) {
    std::cerr << "excluded " << n << " record(s): " << reason << " (first at "
              << r.first_location_by_reason.at(reason) << ")\n";
  }
}

Result<trace::Trace> read_input(const InputFlags& in) {
  trace::ReadOptions options;
  options.format = in.format;
  options.column_map = in.map;
  options.on_error = in.on_error == "skip" ? trace::OnError::kSkip : trace::OnError::kFail;
  trace::ReadReport report;
  auto t = trace::read_trace_file(in.path, options, &report);
  if (t.is_ok()) {
    print_report(report);
  }
  return t;
}

struct StatsFlags {
  InputFlags in;
  bool json = false;
  uint32_t gpus = 0;
  std::string cluster;
  std::string gpu_type_map;
};

// With --cluster: the GPU type map applied, and the jobs that can never run there reported on
// stderr (the same check `boreas sim` refuses a trace for). Returns the cluster's GPU count.
Result<std::optional<uint32_t>> check_on_cluster(const StatsFlags& f, trace::Trace& t) {
  if (f.cluster.empty()) {
    if (!f.gpu_type_map.empty()) {
      return invalid_argument("--gpu-type-map needs --cluster: the map's targets are the cluster's GPU types");
    }
    return f.gpus > 0 ? std::optional(f.gpus) : std::nullopt;
  }
  auto cluster = config::load_cluster_file(f.cluster);
  if (!cluster.is_ok()) {
    return cluster.status();
  }
  BOREAS_RETURN_IF_ERROR(map_gpu_types(f.gpu_type_map, cluster->catalog, t));
  if (const std::string unfit = unfit_report(*cluster, t); !unfit.empty()) {
    std::cerr << "warning: " << unfit << "\n(boreas sim refuses this trace on this cluster unless given "
              << "--gpu-type-map or --drop-unfit)\n";
  }
  return std::optional(cluster->gpu_count());
}

int run_stats(const StatsFlags& f) {
  auto t = read_input(f.in);
  if (!t.is_ok()) {
    return report_error(t.status());
  }
  const auto gpus = check_on_cluster(f, *t);
  if (!gpus.is_ok()) {
    return report_error(gpus.status());
  }
  const auto stats = trace::compute_stats(*t);
  std::cout << (f.json ? trace::stats_json(stats, *gpus) : trace::stats_text(stats, *gpus));
  return kExitOk;
}

struct ConvertFlags {
  InputFlags in;
  std::string out;
  std::string filter;
  uint64_t sample = 0;
  uint64_t seed = 1;
};

int run_convert(const ConvertFlags& f) {
  auto t = read_input(f.in);
  if (!t.is_ok()) {
    return report_error(t.status());
  }
  if (!f.filter.empty()) {
    auto filter = trace::parse_filter(f.filter);
    if (!filter.is_ok()) {
      return report_error(filter.status());
    }
    trace::apply_filter(*t, *filter);
  }
  if (f.sample > 0) {
    trace::apply_sample(*t, f.sample, f.seed);
  }
  const Status s = trace::write_trace_file(*t, f.out);
  if (!s.is_ok()) {
    return report_error(s);
  }
  std::cerr << "wrote " << t->jobs.size() << " jobs to " << f.out << "\n";
  return kExitOk;
}

struct SynthFlags {
  std::string out;
  std::string preset = "philly";
  std::string arrival = "poisson";
  uint64_t jobs = 10000;
  uint64_t seed = 1;
  double mean_interarrival_s = 0;
  double amplitude = 0.5;
};

int run_synth(const SynthFlags& f) {
  auto spec = trace::synth_preset(f.preset);
  if (!spec.is_ok()) {
    return report_error(spec.status());
  }
  spec->jobs = f.jobs;
  spec->seed = f.seed;
  spec->arrival = f.arrival == "diurnal" ? trace::ArrivalKind::kDiurnal : trace::ArrivalKind::kPoisson;
  spec->diurnal_amplitude = f.amplitude;
  if (f.mean_interarrival_s > 0) {
    spec->mean_interarrival_s = f.mean_interarrival_s;
  }
  if (const Status s = trace::check_spec(*spec); !s.is_ok()) {
    return report_error(s);
  }
  const auto t = trace::synthesize(*spec);
  if (const Status s = trace::write_trace_file(t, f.out); !s.is_ok()) {
    return report_error(s);
  }
  std::cerr << "wrote " << t.jobs.size() << " jobs to " << f.out << "\n";
  return kExitOk;
}

void add_stats(CLI::App* trace_cmd, Runner& runner) {
  auto flags = std::make_shared<StatsFlags>();
  auto* cmd = trace_cmd->add_subcommand("stats", "Summarise a trace: jobs, span, GPUs, durations, queues");
  add_input_flags(cmd, flags->in, "file");
  cmd->add_flag("--json", flags->json, "Print JSON instead of a table");
  auto* gpus = cmd->add_option("--gpus", flags->gpus, "Cluster GPUs: also print the offered load against them");
  cmd->add_option("--cluster", flags->cluster, "Cluster spec (YAML): offered load against its GPUs")
      ->excludes(gpus);
  add_gpu_type_map_option(cmd, flags->gpu_type_map);
  cmd->callback([flags, &runner] { runner.action = [flags] { return run_stats(*flags); }; });
}

void add_convert(CLI::App* trace_cmd, Runner& runner) {
  auto flags = std::make_shared<ConvertFlags>();
  auto* cmd = trace_cmd->add_subcommand("convert", "Convert a trace to the native format (.jsonl/.csv[.gz])");
  add_input_flags(cmd, flags->in, "in");
  cmd->add_option("out", flags->out, "Output file: .jsonl, .csv, optionally .gz")->required();
  cmd->add_option("--filter", flags->filter, "e.g. from=1d,to=8d,queue=a|b,gpus=1-8");
  cmd->add_option("--sample", flags->sample, "Keep N jobs chosen uniformly at random");
  cmd->add_option("--seed", flags->seed, "Seed for --sample (default 1)");
  cmd->callback([flags, &runner] { runner.action = [flags] { return run_convert(*flags); }; });
}

void add_synth(CLI::App* trace_cmd, Runner& runner) {
  auto flags = std::make_shared<SynthFlags>();
  auto* cmd = trace_cmd->add_subcommand("synth", "Generate a seeded synthetic workload");
  cmd->add_option("out", flags->out, "Output file: .jsonl, .csv, optionally .gz")->required();
  cmd->add_option("--preset", flags->preset, "philly (default) or helios")->check(CLI::IsMember({"philly", "helios"}));
  cmd->add_option("--jobs", flags->jobs, "Number of jobs (default 10000)");
  cmd->add_option("--seed", flags->seed, "Random seed (default 1)");
  cmd->add_option("--arrival", flags->arrival, "poisson (default) or diurnal")
      ->check(CLI::IsMember({"poisson", "diurnal"}));
  cmd->add_option("--mean-interarrival", flags->mean_interarrival_s, "Seconds between arrivals (preset's if unset)");
  cmd->add_option("--diurnal-amplitude", flags->amplitude, "Daily rate swing in [0, 1) (default 0.5)");
  cmd->callback([flags, &runner] { runner.action = [flags] { return run_synth(*flags); }; });
}

}  // namespace

void add_trace_commands(CLI::App& app, Runner& runner) {
  auto* cmd = app.add_subcommand("trace", "Read, summarise, convert and synthesise job traces");
  cmd->require_subcommand(1);
  add_stats(cmd, runner);
  add_convert(cmd, runner);
  add_synth(cmd, runner);
}

}  // namespace boreas::cli
