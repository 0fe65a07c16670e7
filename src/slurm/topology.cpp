#include "slurm/topology.h"

#include <charconv>

#include "slurm/hostlist.h"

namespace boreas::slurm {
namespace {

std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start < line.size()) {
    size_t end = line.find_first_of(" \t", start);
    end = end == std::string_view::npos ? line.size() : end;
    if (end > start) {
      out.push_back(line.substr(start, end - start));
    }
    start = end + 1;
  }
  return out;
}

Status set_field(std::string_view key, std::string_view value, SlurmSwitch* sw) {
  if (key == "SwitchName") {
    sw->name = value;
  } else if (key == "Level") {
    const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), sw->level);
    if (ec != std::errc() || p != value.data() + value.size()) {
      return invalid_argument("Level '" + std::string(value) + "' is not a number");
    }
  } else if (key == "Nodes" || key == "Switches") {
    auto names = expand_hostlist(value);
    if (!names.is_ok()) {
      return names.status();
    }
    (key == "Nodes" ? sw->nodes : sw->switches) = std::move(*names);
  }
  return Status::ok();
}

Result<SlurmSwitch> parse_line(std::string_view line) {
  SlurmSwitch sw;
  for (std::string_view tok : tokens(line)) {
    const size_t eq = tok.find('=');
    if (eq == std::string_view::npos) {
      return invalid_argument("'" + std::string(tok) + "' is not KEY=VALUE");
    }
    BOREAS_RETURN_IF_ERROR(set_field(tok.substr(0, eq), tok.substr(eq + 1), &sw));
  }
  if (sw.name.empty()) {
    return invalid_argument("no SwitchName");
  }
  return sw;
}

}  // namespace

Result<std::vector<SlurmSwitch>> parse_topology(std::string_view text) {
  std::vector<SlurmSwitch> out;
  size_t start = 0;
  for (int line_no = 1; start < text.size(); ++line_no) {
    size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end;
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
      continue;
    }
    auto sw = parse_line(line);
    if (!sw.is_ok()) {
      return sw.status().with_context("scontrol show topology, line " + std::to_string(line_no) + ": ");
    }
    out.push_back(std::move(*sw));
  }
  return out;
}

}  // namespace boreas::slurm
