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

int run_submit(const ClientArgs& a, const SubmitArgs& given) {
  auto s = with_script(given);
  std::error_code ec;
  auto body = s.is_ok() ? submit_body(*s, fs::current_path(ec).string()) : Result<json>(s.status());
  if (!body.is_ok()) {
    return report_error(body.status());
  }
  // A retry after a lost answer or a 5xx sends the same key, so the daemon returns the first job
  // instead of running it twice.
  const Headers key = {{"Idempotency-Key", random_key()}};
  const bool parsable = s->parsable;
  return show(a, request(a, "POST", "/v1/jobs", body->dump(), key, Retry{5, 250}), [parsable](const json& j) {
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
