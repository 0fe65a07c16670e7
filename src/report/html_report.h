#pragma once
// The self-contained HTML report: every script, style and datum inlined, no network needed.

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "report/page_data.h"

namespace boreas::report {

struct ReportOptions {
  std::string title;  // empty: built from the runs (trace, cluster, policies vs the baseline)
  PageLimits limits;
  PageChoices choices;  // baseline policy and job ids for the drill-down
};

// Fills web/template.html with the style, scripts and `data` (from page_data()).
void render_html(std::ostream& out, const nlohmann::json& data);

// Reads every policy under `run_dirs` (run folders or policy folders) and writes the page.
Status write_html_report(const std::vector<std::string>& run_dirs, const std::string& out_path,
                         const ReportOptions& options);

// Escapes text for HTML element content and attribute values.
std::string html_escape(std::string_view text);

}  // namespace boreas::report
