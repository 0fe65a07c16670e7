#include "cli/commands.h"

namespace boreas::cli {

void add_all_commands(CLI::App& app, Runner& runner) {
  add_version_command(app, runner);
  add_cluster_commands(app, runner);
  add_models_commands(app, runner);
  add_serve_commands(app, runner);
  add_token_commands(app, runner);
  add_client_commands(app, runner);
  add_trace_commands(app, runner);
  add_sim_commands(app, runner);
  add_report_commands(app, runner);
  add_experiment_commands(app, runner);
  add_frag_commands(app, runner);
  add_man_command(app, runner);
  add_completion_command(app, runner);
}

}  // namespace boreas::cli
