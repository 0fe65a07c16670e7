// The `boreas frag` page: two SVG line charts (GPU allocation, fragmentation ratio) and a table.
#include "report/frag_page.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>

#include "report/csv.h"
#include "report/html_report.h"
#include "report/io.h"

namespace boreas::report {

namespace fs = std::filesystem;

namespace {

constexpr std::array<std::string_view, 8> kColours = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                      "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
constexpr double kWidth = 640, kHeight = 300, kLeft = 50, kRight = 120, kTop = 10, kBottom = 40;

std::vector<std::string> policy_dirs(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory() && fs::exists(e.path() / "curve.csv")) {
      out.push_back(e.path().filename().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<FragCurve> read_curve(const std::string& dir, const std::string& policy) {
  auto table = CsvTable::read_file((fs::path(dir) / policy / "curve.csv").string(), policy + "/curve.csv");
  if (!table.is_ok()) {
    return table.status();
  }
  FragCurve c;
  c.policy = policy;
  std::array<size_t, 6> col{};
  const std::array<std::string_view, 6> names = {"seed", "arrived_pct", "gpu_alloc_pct", "frag_amount_pct",
                                                 "frag_ratio_pct", "unalloc_gpu_pct"};
  for (size_t i = 0; i < names.size(); ++i) {
    auto at = table->require_column(names[i]);
    if (!at.is_ok()) {
      return at.status();
    }
    col[i] = *at;
  }
  std::array<std::vector<double>*, 5> into = {&c.arrived_pct, &c.alloc_pct, &c.frag_amount_pct, &c.frag_ratio_pct,
                                              &c.unalloc_pct};
  for (size_t r = 0; r < table->row_count(); ++r) {
    if (table->cell(r, col[0]) != "mean") {
      continue;
    }
    for (size_t i = 0; i < into.size(); ++i) {
      auto v = table->number(r, col[i + 1]);
      if (!v.is_ok()) {
        return v.status();
      }
      into[i]->push_back(*v);
    }
  }
  if (c.arrived_pct.empty()) {
    return invalid_argument(policy + "/curve.csv: no rows with seed 'mean'; write it again with boreas frag");
  }
  return c;
}

// The part of the plane a chart shows: arrived demand x0..x1, percent y0..y1 (ticks every `step`).
struct Frame {
  double x0 = 0, x1 = 130, y0 = 0, y1 = 100, step = 20;
  double x(double arrived) const { return kLeft + (arrived - x0) / (x1 - x0) * (kWidth - kLeft - kRight); }
  double y(double pct) const { return kTop + (y1 - pct) / (y1 - y0) * (kHeight - kTop - kBottom); }
};

std::string axes(const Frame& f, std::string_view y_label) {
  std::string s;
  for (double pct = f.y0; pct <= f.y1 + 1e-9; pct += f.step) {
    s += fmt::format("<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>"
                     "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n",
                     kLeft, kWidth - kRight, f.y(pct), f.y(pct), kLeft - 4, f.y(pct) + 4, pct);
  }
  for (double arrived = f.x0; arrived <= f.x1 + 1e-9; arrived += 10) {
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{:g}</text>\n", f.x(arrived),
                     kHeight - kBottom + 16, arrived);
  }
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">arrived GPU demand, % of capacity</text>\n",
                   (kLeft + kWidth - kRight) / 2, kHeight - 4);
  s += fmt::format("<text x=\"12\" y=\"{:.1f}\" transform=\"rotate(-90 12 {:.1f})\" text-anchor=\"middle\">{}</text>\n",
                   kHeight / 2, kHeight / 2, html_escape(y_label));
  return s;
}

double x_max(const std::vector<FragCurve>& curves) {
  double x = 1;
  for (const auto& c : curves) {
    x = std::max(x, c.arrived_pct.back());
  }
  return x;
}

// One line per policy of `values(curve)` against arrived demand, with the legend at the right;
// points left of the frame are left out, values are clamped to it.
template <typename Values>
std::string chart(const std::vector<FragCurve>& curves, const Frame& f, std::string_view y_label, Values values) {
  std::string s = fmt::format("<svg width=\"{}\" height=\"{}\" font-size=\"11\" role=\"img\" aria-label=\"{}\">\n",
                              kWidth, kHeight, html_escape(y_label));
  s += axes(f, y_label);
  for (size_t i = 0; i < curves.size(); ++i) {
    const FragCurve& c = curves[i];
    const std::vector<double>& ys = values(c);
    std::string points;
    for (size_t k = 0; k < ys.size(); ++k) {
      if (c.arrived_pct[k] >= f.x0) {
        points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", f.x(c.arrived_pct[k]),
                              f.y(std::clamp(ys[k], f.y0, f.y1)));
      }
    }
    const std::string_view colour = kColours[i % kColours.size()];
    s += fmt::format("<polyline data-policy=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>\n",
                     html_escape(c.policy), colour, points);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n", kWidth - kRight + 8,
                     kTop + 14.0 * static_cast<double>(i + 1), colour, html_escape(c.policy));
  }
  return s + "</svg>\n";
}

// The curve's value at arrived demand `pct` (the last point when the curve stops short).
double at(const std::vector<double>& arrived, const std::vector<double>& ys, double pct) {
  for (size_t k = 0; k < arrived.size(); ++k) {
    if (arrived[k] >= pct) {
      return ys[k];
    }
  }
  return ys.back();
}

std::string table(const std::vector<FragCurve>& curves) {
  std::string s = "<table><tr><th>policy</th><th>GPU allocated at 100 %</th><th>at 130 %</th>"
                  "<th>unallocated at 100 %</th><th>fragmentation ratio at 90 %</th>"
                  "<th>fragmentation at 100 %</th></tr>\n";
  for (const auto& c : curves) {
    s += fmt::format("<tr><th>{}</th><td>{:.2f}</td><td>{:.2f}</td><td>{:.2f}</td><td>{:.2f}</td><td>{:.2f}</td></tr>\n",
                     html_escape(c.policy), at(c.arrived_pct, c.alloc_pct, 100), at(c.arrived_pct, c.alloc_pct, 130),
                     at(c.arrived_pct, c.unalloc_pct, 100), at(c.arrived_pct, c.frag_ratio_pct, 90),
                     at(c.arrived_pct, c.frag_amount_pct, 100));
  }
  return s + "</table>\n";
}

constexpr std::string_view kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;max-width:1000px;margin:24px auto;padding:0 16px;color:#222}
table{border-collapse:collapse;margin:8px 0 24px}th,td{border-bottom:1px solid #ddd;padding:6px 8px;text-align:right}
th:first-child{text-align:left}.how{color:#555}
)";

}  // namespace

bool is_frag_output(const std::string& dir) { return !policy_dirs(dir).empty(); }

Result<std::vector<FragCurve>> read_frag_curves(const std::string& dir) {
  const std::vector<std::string> policies = policy_dirs(dir);
  if (policies.empty()) {
    return invalid_argument(dir + ": no <policy>/curve.csv; pass the --out directory of boreas frag");
  }
  return read_each<FragCurve>(policies, [&dir](const std::string& p) { return read_curve(dir, p); });
}

std::string frag_html(const std::vector<FragCurve>& curves, const std::string& title) {
  std::string s = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_escape(title) +
                  "</title><style>" + std::string(kStyle) + "</style></head><body>\n<h1>" + html_escape(title) +
                  "</h1>\n<p class=\"how\">Means over seeds (docs/fragmentation.md). Pods never leave: as "
                  "arrived demand grows, a policy that packs better keeps allocating longer.</p>\n";
  s += table(curves);
  const Frame whole{0, x_max(curves), 0, 100, 20};
  const Frame top{std::min(80.0, whole.x1 - 10), whole.x1, 80, 100, 5};
  auto alloc = [](const FragCurve& c) -> const auto& { return c.alloc_pct; };
  s += "<h2>GPU allocation</h2>\n<p class=\"how\">Allocated GPU as % of capacity. Higher and later to "
       "flatten is better; the diagonal up to 100 % is every pod placed. The second chart enlarges the "
       "top right, where the policies part.</p>\n";
  s += chart(curves, whole, "GPU allocated, % of capacity", alloc);
  s += chart(curves, top, "GPU allocated, % of capacity", alloc);
  s += "<h2>Fragmentation ratio</h2>\n<p class=\"how\">Fragmented idle GPU as % of idle GPU, by FGD's "
       "measure against the pod list's task mix. Lower is better.</p>\n";
  s += chart(curves, whole, "fragmented / idle GPU, %", [](const FragCurve& c) -> const auto& { return c.frag_ratio_pct; });
  return s + "</body></html>\n";
}

Status write_frag_report(const std::string& dir, const std::string& out_path, const std::string& title) {
  auto curves = read_frag_curves(dir);
  if (!curves.is_ok()) {
    return curves.status();
  }
  const std::string page = frag_html(*curves, title.empty() ? "boreas frag: " + dir : title);
  return write_text_file(out_path, [&page](std::ostream& os) { os << page; });
}

}  // namespace boreas::report
