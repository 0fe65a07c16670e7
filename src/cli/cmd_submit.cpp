// `boreas submit`: sbatch's habits. `boreas submit -G 2 -t 1-00:00:00 -- python train.py`, or
// `boreas submit job.sh ARGS` whose #SBATCH / #BOREAS lines set the same options.

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>

#include <unistd.h>

#include "cli/client.h"
#include "cli/submit_options.h"

namespace boreas::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// 128 random bits as a UUID-shaped string: names one submit across its retries.
std::string random_key() {
  std::random_device rd;
  std::ostringstream out;
  out << std::hex << std::setfill('0');
  for (int i = 0; i < 4; ++i) {
    out << std::setw(8) << rd() << (i < 3 ? "-" : "");
  }
  return out.str();
}

// A script argument (an existing file) contributes its directives; it runs by its absolute path,
// through /bin/sh when it is not executable. A program on PATH is left as it is.
Result<SubmitArgs> with_script(SubmitArgs s) {
  const fs::path first = s.command.front();
  std::error_code ec;
  if (!fs::is_regular_file(first, ec)) {
    return s;
  }
  std::ifstream in(first);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    return io_error(first.string() + ": cannot read the script");
  }
  auto script = read_directives(text.str(), first.string());
  if (!script.is_ok()) {
    return script.status();
  }
  const std::string path = fs::absolute(first, ec).lexically_normal().string();
  s.command.front() = path;
  if (access(path.c_str(), X_OK) != 0) {
    s.command.insert(s.command.begin(), "/bin/sh");
  }
  s = merge(std::move(s), *script);
  s.name = s.name.empty() ? first.filename().string() : s.name;
  return s;
}

// A retry after a lost answer or a 5xx sends the same key, so the daemon returns the first job
// instead of running it twice.
Result<json> post_job(const ClientArgs& a, const json& body) {
  const Headers key = {{"Idempotency-Key", random_key()}};
  return request(a, "POST", "/v1/jobs", body.dump(), key, Retry{5, 250});
}

// One job per task; with %N, task k waits for task k-N to end. A failed submit stops the loop
// and says which tasks exist.
int submit_array(const ClientArgs& a, const SubmitArgs& s, const json& body) {
  auto spec = parse_array(s.array);
  if (!spec.is_ok()) {
    return report_error(spec.status());
  }
  std::vector<uint32_t> ids;
  json jobs = json::array();
  for (size_t k = 0; k < spec->tasks.size(); ++k) {
    const uint32_t after = spec->at_once != 0 && k >= spec->at_once ? ids[k - spec->at_once] : 0;
    auto r = post_job(a, array_task_body(body, spec->tasks[k], after));
    if (!r.is_ok()) {
      return report_error(r.status().with_context("--array task " + std::to_string(spec->tasks[k]) + " (" +
                                                  std::to_string(k) + " tasks submitted before it): "));
    }
    ids.push_back((*r)["id"].get<uint32_t>());
    jobs.push_back(*r);
    if (!a.json_out) {
      std::cout << (s.parsable ? "" : "Submitted job ") << ids.back()
                << (s.parsable ? "" : " (task " + std::to_string(spec->tasks[k]) + ")") << "\n";
    }
  }
  if (a.json_out) {
    std::cout << json{{"jobs", jobs}}.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  }
  return kExitOk;
}

int run_submit(const ClientArgs& a, const SubmitArgs& given) {
  auto s = with_script(given);
  if (s.is_ok() && !s->array.empty() && s->name.empty()) {
    s->name = fs::path(s->command.front()).filename().string();  // tasks are NAME_i
  }
  std::error_code ec;
  auto body = s.is_ok() ? submit_body(*s, fs::current_path(ec).string()) : Result<json>(s.status());
  if (!body.is_ok()) {
    return report_error(body.status());
  }
  if (!s->array.empty()) {
    return submit_array(a, *s, *body);
  }
  const bool parsable = s->parsable;
  return show(a, post_job(a, *body), [parsable](const json& j) {
    std::cout << (parsable ? "" : "Submitted job ") << cell(j, "id") << "\n";
  });
}

}  // namespace

void add_submit_command(CLI::App& app, Runner& runner) {
  auto* cmd = app.add_subcommand(
      "submit", "Submit a job (like sbatch): boreas submit -G 2 -t 2h -- python train.py, or boreas submit job.sh");
  auto a = std::make_shared<ClientArgs>();
  auto s = std::make_shared<SubmitArgs>();
  add_common(cmd, *a);
  define_submit_options(*cmd, *s);
  cmd->add_option("command", s->command,
                  "Command and arguments (after --), or a batch script whose #SBATCH/#BOREAS lines set options")
      ->required();
  cmd->callback([&runner, a, s] { runner.action = [a, s] { return run_submit(*a, *s); }; });
}

}  // namespace boreas::cli
