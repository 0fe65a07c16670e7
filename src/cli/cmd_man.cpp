// `boreas man` (hidden): writes the boreas(1) manual page in roff, generated from the CLI11 tree,
// so the page lists exactly the commands and options the binary accepts. `make install` and the
// Debian package install its output as share/man/man1/boreas.1.

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/command.h"
#include "core/version.h"

namespace boreas::cli {
namespace {

// The length of the UTF-8 sequence that starts with `lead`, and the code point bits it holds.
std::pair<size_t, uint32_t> utf8_lead(unsigned char lead) {
  if (lead >= 0xF0) {
    return {4, lead & 0x07u};
  }
  if (lead >= 0xE0) {
    return {3, lead & 0x0Fu};
  }
  return {2, lead & 0x1Fu};
}

// Appends the character at text[i] as roff and returns how many bytes it used: non-ASCII as
// `\[uXXXX]` (troff reads its input as Latin-1), `\` and `-` escaped (`\-` is a copyable minus),
// and a break point after a comma with no space behind it.
size_t append_char(std::string_view text, size_t i, std::string& out) {
  const auto c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) {
    out += c == '\\' ? "\\e" : c == '-' ? "\\-" : std::string(1, static_cast<char>(c));
    if (c == ',' && i + 1 < text.size() && text[i + 1] != ' ') {
      out += "\\:";  // a line may break after the comma of a list written without spaces
    }
    return 1;
  }
  auto [length, code] = utf8_lead(c);
  length = std::min(length, text.size() - i);
  for (size_t k = 1; k < length; ++k) {
    code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3Fu);
  }
  out += fmt::format("\\[u{:04X}]", code);
  return length;
}

// Text as roff: a line that starts with `.` or `'` guarded so it is not read as a request, blank
// lines as paragraph breaks.
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (line_start && c == '\n') {
      out += ".sp\n";
      ++i;
      continue;
    }
    if (line_start && (c == '.' || c == '\'')) {
      out += "\\&";
    }
    i += append_char(text, i, out);
    line_start = c == '\n';
  }
  return out;
}

// "Boreas — a workload manager ..." → "a workload manager ...": the NAME line's summary.
std::string_view summary(std::string_view description) {
  const std::string_view dash = " — ";
  const size_t at = description.find(dash);
  return at == std::string_view::npos ? description : description.substr(at + dash.size());
}

bool visible(const CLI::App* app) { return !app->get_name().empty() && !app->get_group().empty(); }

// "\fB\-t\fR, \fB\-\-time\fR \fITEXT\fR": every name of the option, then its value's type.
std::string option_label(const CLI::Option& opt) {
  std::string label;
  std::string names = opt.get_name(false, true);
  std::istringstream split(names);
  for (std::string name; std::getline(split, name, ',');) {
    label += (label.empty() ? "" : ", ") + std::string("\\fB") + roff(name) + "\\fR";
  }
  if (opt.nonpositional() && opt.get_type_size_max() > 0 && !opt.get_type_name().empty()) {
    label += " \\fI" + roff(opt.get_type_name()) + "\\fR";
  }
  return label;
}

std::string option_notes(const CLI::Option& opt) {
  std::string notes;
  if (opt.get_required()) {
    notes += " (required)";
  }
  if (!opt.get_default_str().empty()) {
    notes += " [default: " + opt.get_default_str() + "]";
  }
  if (!opt.get_envname().empty()) {
    notes += " [env: " + opt.get_envname() + "]";
  }
  return notes;
}

// The options `--help` shows: not hidden, not the help flags themselves.
std::vector<const CLI::Option*> shown_options(const CLI::App& app) {
  return app.get_options([&app](const CLI::Option* o) {
    return !o->get_group().empty() && o != app.get_help_ptr() && o != app.get_help_all_ptr();
  });
}

void write_options(std::ostream& out, const CLI::App& app) {
  for (const CLI::Option* opt : shown_options(app)) {
    out << ".TP\n" << option_label(*opt) << "\n" << roff(opt->get_description() + option_notes(*opt)) << "\n";
  }
}

std::string usage(const CLI::App& app, const std::string& path) {
  std::string text = path;
  for (const CLI::Option* opt : app.get_options([](const CLI::Option* o) { return o->get_positional(); })) {
    const std::string name = opt->get_name(true);
    text += opt->get_required() ? " " + name : " [" + name + "]";
  }
  return text;
}

// One subsection per command that runs something, depth first in the order of `boreas --help`.
void write_command(std::ostream& out, const CLI::App& app, const std::string& path) {
  const auto subs = app.get_subcommands([](const CLI::App* s) { return visible(s); });
  if (subs.empty() || !shown_options(app).empty()) {
    out << ".SS \"" << roff(usage(app, path)) << "\"\n" << roff(app.get_description()) << "\n";
    write_options(out, app);
  }
  for (const CLI::App* sub : subs) {
    write_command(out, *sub, path + " " + sub->get_name());
  }
}

void write_page(std::ostream& out, const CLI::App& root) {
  out << ".\\\" Generated by `boreas man` from the command-line definition. Do not edit.\n"
      << ".TH BOREAS 1 \"\" \"boreas " << roff(version()) << "\" \"User Commands\"\n"
      << ".SH NAME\nboreas \\- " << roff(summary(root.get_description())) << "\n"
      << ".SH SYNOPSIS\n.B boreas\n.I COMMAND\n.RI [ OPTIONS ]\n"
      << ".SH DESCRIPTION\nOne binary: the digital twin (\\fBsim\\fR, \\fBexperiment\\fR, \\fBreport\\fR,\n"
      << "\\fBtrace\\fR), the live daemon (\\fBserve\\fR) and its clients. Each command below lists its\n"
      << "options; \\fBboreas\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR prints the same; a positional\n"
      << "argument in brackets is optional.\n"
      << ".SH COMMANDS\n";
  for (const CLI::App* sub : root.get_subcommands([](const CLI::App* s) { return visible(s); })) {
    write_command(out, *sub, "boreas " + sub->get_name());
  }
  out << ".SH \"EXIT STATUS\"\n0 on success, 1 for a usage or input error (the message on standard error\n"
      << "says what and where), 2 for an internal error.\n"
      << ".SH \"SEE ALSO\"\nThe documentation in the source tree: README.md, docs/live.md (the daemon),\n"
      << "docs/api/openapi.yaml (its HTTP API), docs/coming\\-from\\-slurm.md.\n";
}

}  // namespace

void add_man_command(CLI::App& app, Runner& runner) {
  auto* cmd = app.add_subcommand("man", "Write the boreas(1) manual page (roff) to standard output");
  cmd->group("");  // hidden: for packaging, not for users
  cmd->callback([&app, &runner] {
    runner.action = [&app] {
      write_page(std::cout, app);
      return std::cout.good() ? kExitOk : kExitUserError;
    };
  });
}

}  // namespace boreas::cli
