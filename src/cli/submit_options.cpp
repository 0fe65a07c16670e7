#include "cli/submit_options.h"

#include <cstdlib>
#include <optional>
#include <sstream>

#include "core/duration.h"

namespace boreas::cli {
namespace {

using nlohmann::json;

// Words of a directive line: whitespace-separated, with '...' and "..." quoting.
Result<std::vector<std::string>> words(const std::string& line) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (char c : line) {
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) {
        out.push_back(word);
      }
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote != 0) {
    return invalid_argument("unterminated quote");
  }
  if (in_word) {
    out.push_back(word);
  }
  return out;
}

// The text after "#SBATCH " or "#BOREAS ", or nullopt when `line` is not a directive.
std::optional<std::string> directive(const std::string& line) {
  for (const char* prefix : {"#SBATCH", "#BOREAS"}) {
    const std::string p(prefix);
    if (line.rfind(p, 0) == 0 && (line.size() == p.size() || line[p.size()] == ' ' || line[p.size()] == '\t')) {
      return line.substr(p.size());
    }
  }
  return std::nullopt;
}

Status parse_directive(const std::string& text, SubmitArgs& s) {
  auto args = words(text);
  if (!args.is_ok()) {
    return args.status();
  }
  CLI::App parser{"directives"};
  define_submit_options(parser, s);
  std::vector<std::string> reversed(args->rbegin(), args->rend());  // CLI11 takes them last first
  try {
    parser.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return invalid_argument(e.what());
  }
  return Status::ok();
}

// A share of one GPU: "0.5", ".25" (the daemon checks the range and the precision).
std::optional<double> fraction(const std::string& count) {
  char* end = nullptr;
  const double x = std::strtod(count.c_str(), &end);
  const bool number = !count.empty() && end != count.c_str() && *end == '\0' &&
                      count.find_first_not_of("0123456789.") == std::string::npos;
  return number ? std::optional<double>(x) : std::nullopt;
}

// "-G 2", "-G a100:2" (sbatch --gpus=[type:]number) or a share "-G 0.5"; TYPE:N overrides --gpu-type.
Status read_gpus(const SubmitArgs& s, json& body) {
  std::string count = s.gpus;
  std::string type = s.gpu_type;
  const size_t colon = count.find(':');
  if (colon != std::string::npos) {
    type = count.substr(0, colon);
    count = count.substr(colon + 1);
  }
  const bool digits = !count.empty() && count.size() <= 5 && count.find_first_not_of("0123456789") == std::string::npos;
  const std::optional<double> share = digits ? std::nullopt : fraction(count);
  if (!s.gpus.empty() && ((!digits && !share) || (colon != std::string::npos && type.empty()))) {
    return invalid_argument("--gpus " + s.gpus + ": expected a count (2), TYPE:COUNT (a100:2) or a share of one GPU (0.5)");
  }
  if (share) {
    body["gpus"] = *share;
  } else if (digits || s.gpu_memory.empty()) {  // --gpu-memory alone: the daemon gives one GPU
    body["gpus"] = digits ? std::stoul(count) : 0;
  }
  if (!s.gpu_memory.empty()) {
    body["gpu_memory"] = s.gpu_memory;
  }
  if (!type.empty()) {
    body["gpu_type"] = type;
  }
  return Status::ok();
}

// -c 2 or -c 0.5 as a JSON number; --mem as text the daemon reads (MiB or K/M/G/T) and checks.
Status read_resources(const SubmitArgs& s, json& body) {
  if (!s.cpus.empty()) {
    char* end = nullptr;
    const double cpus = std::strtod(s.cpus.c_str(), &end);
    if (end == s.cpus.c_str() || *end != '\0' || !(cpus > 0)) {
      return invalid_argument("--cpus " + s.cpus + ": expected a number of CPUs (2, 0.5)");
    }
    body["cpus"] = cpus;
  }
  if (!s.mem.empty()) {
    body["memory"] = s.mem;
  }
  return Status::ok();
}

Status read_time(const SubmitArgs& s, json& body) {
  if (s.time.empty()) {
    return Status::ok();
  }
  auto d = parse_duration(s.time);
  if (!d.is_ok()) {
    return d.status().with_context("--time: ");
  }
  body["time_limit_s"] = d->is_infinite() ? 0 : d->us() / 1'000'000;
  return Status::ok();
}

}  // namespace

void define_submit_options(CLI::App& cmd, SubmitArgs& s) {
  cmd.add_option("-G,--gpus", s.gpus,
                 "GPUs in the gang: N, or TYPE:N as sbatch --gpus (a100:2); or a share of one GPU, 0.001 to 0.999 (0.5)");
  cmd.add_option("--gpu-memory", s.gpu_memory,
                 "GPU memory of a share of one GPU, as --mem (20G); alone it asks for one GPU shared by memory");
  cmd.add_option("--gpu-type", s.gpu_type, "GPU type (empty = any)");
  cmd.add_option("-c,--cpus-per-task,--cpus", s.cpus,
                 "CPUs the job holds on its node (sbatch -c); fractions to 0.001; default: its GPUs' share of the "
                 "node, 1 for a job without GPUs");
  cmd.add_option("--mem", s.mem,
                 "Memory on its node as sbatch --mem: MiB (4096) or 512M, 4G, 1T; default: its GPUs' share of the "
                 "node");
  cmd.add_option("-A,--account,--queue", s.queue, "Queue (Slurm: account); default `default`");
  cmd.add_option("-q,--qos,--priority", s.qos, "Priority class of the queue tree (Slurm: QOS)");
  cmd.add_option("-t,--time,--time-limit", s.time,
                 "Time limit as sbatch --time: minutes (30), MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, "
                 "30s, 30m, 2h, 1d or UNLIMITED");
  cmd.add_option("-J,--job-name,--name", s.name, "Job name (default: the script's file name)");
  cmd.add_option("--restart", s.restart,
                 "never (default) | on-failure[:N]: requeue after a non-zero exit or a lost process, "
                 "at most N times (default 3)");
  cmd.add_option("-d,--dependency", s.dependency,
                 "Start only after other jobs: afterok:ID[:ID] (succeeded), afterany:ID (ended), "
                 "afternotok:ID (failed or cancelled); several joined with ','");
  cmd.add_option("-a,--array", s.array,
                 "A job array: 0-9, 1,3,5-7, or 0-99%4 (at most 4 at once); one job per index, named "
                 "NAME_i, with SLURM_ARRAY_TASK_ID and BOREAS_ARRAY_TASK_ID set");
  cmd.add_option("-o,--output", s.output,
                 "Write standard output to this file instead of DATA/jobs/ID/stdout.log (sbatch -o): %j is the "
                 "job id, %x its name, %a the array index; relative to the working directory");
  cmd.add_option("-e,--error", s.error, "Write standard error to this file (sbatch -e); the same patterns");
  cmd.add_flag("--parsable", s.parsable, "Print only the job id");
}

Result<SubmitArgs> read_directives(const std::string& script_text, const std::string& path) {
  SubmitArgs s;
  std::istringstream in(script_text);
  size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    line = line.substr(0, line.find('\r'));
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] != '#') {
      if (first == std::string::npos) {
        continue;  // blank
      }
      break;  // the first command ends the directives, as in sbatch
    }
    if (const auto text = directive(line)) {
      if (Status st = parse_directive(*text, s); !st.is_ok()) {
        return st.with_context(path + ":" + std::to_string(number) + ": `" + line + "`: ");
      }
    }
  }
  return s;
}

SubmitArgs merge(SubmitArgs c, const SubmitArgs& script) {
  for (auto member : {&SubmitArgs::gpus, &SubmitArgs::gpu_type, &SubmitArgs::cpus, &SubmitArgs::mem, &SubmitArgs::gpu_memory,
                      &SubmitArgs::queue, &SubmitArgs::qos,
                      &SubmitArgs::time, &SubmitArgs::name, &SubmitArgs::restart, &SubmitArgs::dependency,
                      &SubmitArgs::array, &SubmitArgs::output, &SubmitArgs::error}) {
    if ((c.*member).empty()) {
      c.*member = script.*member;
    }
  }
  c.parsable = c.parsable || script.parsable;
  return c;
}

Result<ArraySpec> parse_array(const std::string& text) {
  const auto usage = [&] {
    return invalid_argument("--array " + text + ": expected indexes like 0-9, 1,3,5-7 or 0-99%4 (at most " +
                            std::to_string(kMaxArrayTasks) + " tasks; %N: at most N at once)");
  };
  const auto number = [](const std::string& s) -> std::optional<uint32_t> {
    if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos) {
      return std::nullopt;
    }
    return static_cast<uint32_t>(std::stoul(s));
  };
  ArraySpec spec;
  const size_t percent = text.find('%');
  if (percent != std::string::npos) {
    const auto n = number(text.substr(percent + 1));
    if (!n || *n == 0) {
      return usage();
    }
    spec.at_once = *n;
  }
  std::istringstream items(text.substr(0, percent));
  for (std::string item; std::getline(items, item, ',');) {
    const size_t dash = item.find('-');
    const auto first = number(item.substr(0, dash));
    const auto last = dash == std::string::npos ? first : number(item.substr(dash + 1));
    if (!first || !last || *last < *first || *last - *first >= kMaxArrayTasks) {
      return usage();
    }
    for (uint32_t i = *first; i <= *last; ++i) {
      spec.tasks.push_back(i);
    }
  }
  if (spec.tasks.empty() || spec.tasks.size() > kMaxArrayTasks || text.back() == ',') {
    return usage();
  }
  return spec;
}

json array_task_body(json body, uint32_t task, uint32_t after) {
  const std::string index = std::to_string(task);
  body["name"] = body.value("name", "") + "_" + index;
  body["env"] = {{"SLURM_ARRAY_TASK_ID", index}, {"BOREAS_ARRAY_TASK_ID", index}};
  for (const char* key : {"output", "error"}) {  // sbatch's %a: the task's index
    if (body.contains(key)) {
      std::string path = body[key].get<std::string>();
      for (size_t at = path.find("%a"); at != std::string::npos; at = path.find("%a", at + index.size())) {
        if (at > 0 && path[at - 1] == '%') {
          at += 1;  // "%%a" is a literal "%a"
          continue;
        }
        path.replace(at, 2, index);
      }
      body[key] = path;
    }
  }
  if (after != 0) {
    const std::string own = body.value("dependency", "");
    body["dependency"] = (own.empty() ? "" : own + ",") + "afterany:" + std::to_string(after);
  }
  return body;
}

Result<json> submit_body(const SubmitArgs& s, const std::string& cwd) {
  json body = {{"command", s.command}, {"queue", s.queue.empty() ? "default" : s.queue}, {"name", s.name},
               {"cwd", cwd}};
  BOREAS_RETURN_IF_ERROR(read_gpus(s, body));
  BOREAS_RETURN_IF_ERROR(read_time(s, body));
  BOREAS_RETURN_IF_ERROR(read_resources(s, body));
  if (!s.qos.empty()) {
    body["priority_class"] = s.qos;
  }
  if (!s.restart.empty()) {
    body["restart"] = s.restart;  // the daemon checks it and says what is wrong
  }
  if (!s.dependency.empty()) {
    body["dependency"] = s.dependency;  // likewise
  }
  if (!s.output.empty()) {
    body["output"] = s.output;  // %j, %x: the daemon expands and checks them
  }
  if (!s.error.empty()) {
    body["error"] = s.error;
  }
  return body;
}

}  // namespace boreas::cli
