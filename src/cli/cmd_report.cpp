// `boreas report DIR... -o FILE.html [--title T] [--baseline P] [--job ID]... [--schedule-trace FILE.json[.gz]]`
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "report/chrome_trace.h"
#include "report/frag_page.h"
#include "report/html_report.h"

namespace boreas::cli {
namespace {

struct ReportArgs {
  std::vector<std::string> dirs;
  std::string html_out;
  std::string trace_out;
  report::ReportOptions options;
};

int run_report(const ReportArgs& args) {
  if (args.html_out.empty() && args.trace_out.empty()) {
    return report_error(invalid_argument("nothing to write: pass -o FILE.html and/or --schedule-trace FILE.json"));
  }
  if (args.dirs.size() == 1 && report::is_frag_output(args.dirs[0])) {  // `boreas frag --out` (its own page)
    if (args.html_out.empty()) {
      return report_error(invalid_argument(args.dirs[0] + " is a boreas frag output: pass -o FILE.html"));
    }
    if (Status s = report::write_frag_report(args.dirs[0], args.html_out, args.options.title); !s.is_ok()) {
      return report_error(s);
    }
    std::cout << "report: " << args.html_out << "\n";
    return kExitOk;
  }
  if (!args.html_out.empty()) {
    if (Status s = report::write_html_report(args.dirs, args.html_out, args.options); !s.is_ok()) {
      return report_error(s);
    }
    std::cout << "report: " << args.html_out << "\n";
  }
  if (!args.trace_out.empty()) {
    if (Status s = report::write_schedule_trace(args.dirs, args.trace_out); !s.is_ok()) {
      return report_error(s);
    }
    std::cout << "schedule trace: " << args.trace_out << "\n";
  }
  return kExitOk;
}

}  // namespace

void add_report_commands(CLI::App& app, Runner& runner) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand("report", "Build the HTML policy comparison from saved `boreas sim --out` runs");
  cmd->add_option("dirs", args->dirs, "Run folders (one subfolder per policy) or single policy folders")
      ->required();
  cmd->add_option("-o,--output", args->html_out, "Write the self-contained HTML report here");
  cmd->add_option("--title", args->options.title,
                  "Title of the page (default: the trace, the cluster and the policies against the baseline)");
  cmd->add_option("--baseline", args->options.choices.baseline,
                  "Policy the headline compares the others with (default: fifo if present, else the first)");
  cmd->add_option("--job", args->options.choices.jobs,
                  "Job id the per-job drill-down must hold (repeatable; it always holds the longest-waiting jobs)");
  cmd->add_option("--schedule-trace", args->trace_out,
                  "Write the schedule as a Chrome trace (Perfetto, chrome://tracing) here");
  cmd->callback([&runner, args] { runner.action = [args] { return run_report(*args); }; });
}

}  // namespace boreas::cli
