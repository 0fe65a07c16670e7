// `boreas experiment run FILE --out DIR`: runs every arm × load × seed of an experiment file
// (docs/experiments.md) in parallel threads and writes DIR/results.json and DIR/report.html.
#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/experiment_spec.h"
#include "cli/sim_mixed.h"
#include "cli/sim_options.h"
#include "report/experiment_results.h"

namespace boreas::cli {

namespace {

struct ExperimentArgs {
  std::string file, out, seeds, loads;
  std::vector<std::string> options;  // --option KEY=VALUE: shared options that override the file's
  unsigned threads = 0;  // 0: one per core
};

struct RunSlot {
  size_t arm = 0;
  std::optional<double> load;
  uint64_t seed = 0;
  std::map<std::string, double> metrics;
  Status status;
};

// One run's arguments parsed by the `boreas sim` declaration.
Result<SimArgs> parse_run(const std::vector<std::string>& argv, const ExperimentArm& arm) {
  SimArgs args;
  CLI::App app("experiment arm");
  add_sim_options(&app, args);
  std::vector<std::string> reversed(argv.rbegin(), argv.rend());  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return invalid_argument(arm.where + ": arm '" + arm.name + "': " + e.what());
  }
  if (split_policies(args.policies).size() != 1) {
    return invalid_argument(arm.where + ": arm '" + arm.name +
                            "': name exactly one policy (policy: fifo); compare policies as separate arms");
  }
  return args;
}

void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, double>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object()) {
      flatten(*it, key, out);
    } else if (it->is_number() && key != "wall_time_s" && key != "seed") {
      out[key] = it->get<double>();
    }
  }
}

// Cluster and trace files read once per distinct (cluster, trace, format, map), shared read-only.
class InputCache {
 public:
  Result<const SimInputs*> get(const SimArgs& a) {
    const std::string key = a.cluster + "\n" + a.trace + "\n" + a.format + "\n" + a.map;
    std::lock_guard lock(mu_);
    if (auto it = cache_.find(key); it != cache_.end()) {
      return it->second.get();
    }
    auto read = read_sim_inputs(a);
    if (!read.is_ok()) {
      return read.status();
    }
    auto& slot = cache_[key] = std::make_unique<SimInputs>(std::move(*read));
    return slot.get();
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<SimInputs>> cache_;
};

std::string slot_label(const ExperimentSpec& spec, const RunSlot& s) {
  return fmt::format("arm {} load {} seed {}", spec.arms[s.arm].name,
                     s.load ? fmt::format("{}", *s.load) : std::string("as-recorded"), s.seed);
}

std::string load_dir(const std::optional<double>& load) {
  return load ? fmt::format("load-{}", *load) : std::string("load-trace");
}

Status write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream os(path);
  os << text;
  if (!os.flush()) {
    return invalid_argument("cannot write " + path.string() + "; check the --out directory");
  }
  return Status::ok();
}

Status run_slot(const ExperimentSpec& spec, const ExperimentArgs& ea, InputCache& cache, RunSlot& s) {
  const ExperimentArm& arm = spec.arms[s.arm];
  auto args = parse_run(run_arguments(spec, arm, s.load, s.seed), arm);
  if (!args.is_ok()) {
    return args.status();
  }
  auto base = cache.get(*args);
  if (!base.is_ok()) {
    return base.status();
  }
  SimInputs inputs = **base;  // each run shapes its own copy (slice, load, production marks)
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  BOREAS_RETURN_IF_ERROR(prepare_sim_inputs(*args, registry, inputs));
  auto text = run_summary(*args, registry, inputs);  // mixed or not (cli/sim_mixed.h)
  if (!text.is_ok()) {
    return text.status();
  }
  flatten(nlohmann::json::parse(*text), "", s.metrics);
  const auto dir = std::filesystem::path(ea.out) / "runs" / load_dir(s.load) / arm.name;
  std::error_code ec;  // a directory that cannot be made fails the write below, with its path
  std::filesystem::create_directories(dir, ec);
  return write_text(dir / fmt::format("seed-{}.json", s.seed), *text + "\n");
}

std::vector<RunSlot> make_slots(const ExperimentSpec& spec) {
  std::vector<RunSlot> slots;
  for (const auto& load : spec.loads) {
    for (size_t arm = 0; arm < spec.arms.size(); ++arm) {
      for (uint64_t seed : spec.seeds) {
        slots.push_back(RunSlot{arm, load, seed, {}, Status::ok()});
      }
    }
  }
  return slots;
}

// Runs every slot on `threads` workers; each slot's own Status says how it went.
void run_slots(const ExperimentSpec& spec, const ExperimentArgs& ea, std::vector<RunSlot>& slots) {
  InputCache cache;
  std::atomic<size_t> next{0}, done{0};
  std::mutex print;
  const unsigned n = ea.threads ? ea.threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < std::min<size_t>(n, slots.size()); ++w) {
    workers.emplace_back([&] {
      for (size_t i = next++; i < slots.size(); i = next++) {
        slots[i].status = run_slot(spec, ea, cache, slots[i]);
        std::lock_guard lock(print);
        std::cerr << fmt::format("[{}/{}] {}{}\n", ++done, slots.size(), slot_label(spec, slots[i]),
                                 slots[i].status.is_ok() ? "" : ": failed");
      }
    });
  }
  for (auto& w : workers) {
    w.join();
  }
}

std::vector<report::ArmRuns> group_runs(const ExperimentSpec& spec, const std::vector<RunSlot>& slots) {
  std::vector<report::ArmRuns> arms;
  for (const RunSlot& s : slots) {  // slots come grouped by load, then arm, then seed
    if (arms.empty() || arms.back().name != spec.arms[s.arm].name || arms.back().load != s.load) {
      arms.push_back(report::ArmRuns{spec.arms[s.arm].name, s.load, {}, {}});
    }
    arms.back().seeds.push_back(s.seed);
    arms.back().runs.push_back(s.metrics);
  }
  return arms;
}

// --seeds, --loads and --option: a quick or miniature run of the same file (CI runs each
// experiment with two seeds and smaller slices this way).
Status apply_overrides(const ExperimentArgs& ea, ExperimentSpec& spec) {
  if (!ea.seeds.empty()) {
    auto seeds = parse_seed_list(ea.seeds);
    if (!seeds.is_ok()) {
      return seeds.status().with_context("--seeds: ");
    }
    spec.seeds = std::move(*seeds);
  }
  if (!ea.loads.empty()) {
    spec.loads.clear();
    std::stringstream ss(ea.loads);
    for (std::string item; std::getline(ss, item, ',');) {
      char* end = nullptr;
      const double load = std::strtod(item.c_str(), &end);
      if (end == item.c_str() || *end != '\0' || !(load > 0)) {
        return invalid_argument("--loads: '" + item + "' is not a load > 0; e.g. --loads 0.5,0.9");
      }
      spec.loads.emplace_back(load);
    }
  }
  for (const std::string& o : ea.options) {
    const auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0) {
      return invalid_argument("--option: expected KEY=VALUE (a boreas sim option without dashes), got '" + o + "'");
    }
    const std::string key = o.substr(0, eq);
    std::erase_if(spec.options, [&](const SimOption& m) { return m.first == key; });
    spec.options.emplace_back(key, o.substr(eq + 1));
    for (ExperimentArm& arm : spec.arms) {  // the override wins over the arms too
      std::erase_if(arm.options, [&](const SimOption& m) { return m.first == key; });
    }
  }
  return Status::ok();
}


std::string command_line(const ExperimentArgs& ea) {
  std::string cmd = "boreas experiment run " + ea.file + " --out " + ea.out;
  cmd += ea.seeds.empty() ? "" : " --seeds " + ea.seeds;
  cmd += ea.loads.empty() ? "" : " --loads " + ea.loads;
  for (const auto& o : ea.options) {
    cmd += " --option " + o;
  }
  return cmd;
}

int run_experiment(ExperimentArgs& ea) {
  auto spec = load_experiment_file(ea.file);
  if (!spec.is_ok()) {
    return report_error(spec.status());
  }
  if (Status st = apply_overrides(ea, *spec); !st.is_ok()) {
    return report_error(st);
  }
  std::error_code ec;
  std::filesystem::create_directories(ea.out, ec);
  if (ec) {
    return report_error(invalid_argument("--out: cannot create " + ea.out + ": " + ec.message()));
  }
  auto slots = make_slots(*spec);
  run_slots(*spec, ea, slots);
  for (const RunSlot& s : slots) {
    if (!s.status.is_ok()) {
      return report_error(s.status.with_context(slot_label(*spec, s) + ": "));
    }
  }
  report::ExperimentInfo info{spec->name, spec->question, ea.file,
                              command_line(ea),
                              "baseline", spec->metrics};
  const auto results = report::experiment_results(info, group_runs(*spec, slots));
  const std::filesystem::path out(ea.out);
  if (Status st = write_text(out / "results.json", results.dump(2) + "\n"); !st.is_ok()) {
    return report_error(st);
  }
  if (Status st = write_text(out / "report.html", report::experiment_html(results)); !st.is_ok()) {
    return report_error(st);
  }
  std::cout << fmt::format("{} runs; wrote {}/results.json and {}/report.html\n", slots.size(), ea.out, ea.out);
  return kExitOk;
}

int print_summary(std::string path, bool markdown) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    path = (std::filesystem::path(path) / "results.json").string();  // the --out of `experiment run`
  }
  std::ifstream is(path);
  if (!is) {
    return report_error(invalid_argument("cannot read " + path + "; give the results.json that "
                                         "`boreas experiment run` wrote"));
  }
  const auto results = nlohmann::ordered_json::parse(is, nullptr, false);
  if (results.is_discarded() || !results.contains("arms") || !results.contains("report_metrics")) {
    return report_error(invalid_argument(path + ": not an experiment's results.json (docs/experiments.md)"));
  }
  std::cout << (markdown ? report::experiment_markdown(results) : report::experiment_text(results));
  return kExitOk;
}

}  // namespace

void add_experiment_commands(CLI::App& app, Runner& runner) {
  auto* experiment = app.add_subcommand("experiment", "Experiments as code: arms × loads × seeds with CIs");
  experiment->require_subcommand(1);
  auto a = std::make_shared<ExperimentArgs>();
  auto* run = experiment->add_subcommand("run", "Run an experiment file (docs/experiments.md)");
  run->add_option("file", a->file, "experiment YAML, e.g. experiments/thermal.yaml")->required();
  run->add_option("--out", a->out, "directory for results.json, report.html and runs/")->required();
  run->add_option("--seeds", a->seeds, "override the file's seeds, e.g. 1-2 for a quick check");
  run->add_option("--threads", a->threads, "parallel runs (default: one per core)");
  run->add_option("--loads", a->loads, "override the file's loads, e.g. 0.5,0.9");
  run->add_option("--option", a->options,
                  "override a shared option for every arm, KEY=VALUE (repeatable), e.g. --option slice=2000");
  run->callback([&runner, a] { runner.action = [a] { return run_experiment(*a); }; });
  auto results = std::make_shared<std::pair<std::string, bool>>();
  auto* summary = experiment->add_subcommand("summary", "Print an experiment's results.json as a table");
  summary->add_option("results", results->first,
                      "results.json written by `boreas experiment run`, or the --out directory that holds it")->required();
  summary->add_flag("--markdown", results->second, "Markdown tables with every report metric");
  summary->callback(
      [&runner, results] { runner.action = [results] { return print_summary(results->first, results->second); }; });
}

}  // namespace boreas::cli
