#include "report/html_report.h"

#include "report/assets.h"
#include "report/io.h"
#include "report/run_data.h"

namespace boreas::report {

std::string html_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

// JSON inside <script type="application/json">: "</" must not close the element early.
std::string script_safe_json(const nlohmann::json& data) {
  const std::string text = data.dump(-1, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') {
      out += '\\';
    }
  }
  return out;
}

std::string placeholder_value(std::string_view name, const nlohmann::json& data) {
  if (name == "TITLE") {
    return html_escape(data.value("title", std::string()));
  }
  if (name == "STYLE") {
    return std::string(assets::style());
  }
  if (name == "VENDOR") {
    return assets::vendor_scripts();
  }
  if (name == "APP") {
    return std::string(assets::app_script());
  }
  if (name == "DATA") {
    return script_safe_json(data);
  }
  return std::string();
}

}  // namespace

void render_html(std::ostream& out, const nlohmann::json& data) {
  // Placeholders are {{NAME}}; only the template is scanned, never the inserted text.
  const std::string_view page = assets::page_template();
  size_t pos = 0;
  while (pos < page.size()) {
    const size_t open = page.find("{{", pos);
    const size_t close = open == std::string_view::npos ? open : page.find("}}", open);
    if (close == std::string_view::npos) {
      out << page.substr(pos);
      break;
    }
    out << page.substr(pos, open - pos) << placeholder_value(page.substr(open + 2, close - open - 2), data);
    pos = close + 2;
  }
}

Status write_html_report(const std::vector<std::string>& run_dirs, const std::string& out_path,
                         const ReportOptions& options) {
  auto runs = read_run_dirs(run_dirs);
  if (!runs.is_ok()) {
    return runs.status();
  }
  const auto data = page_data(*runs, options.title, options.limits, options.choices);
  if (!data.is_ok()) {
    return data.status();
  }
  return write_text_file(out_path, [&](std::ostream& out) { render_html(out, *data); });
}

}  // namespace boreas::report
