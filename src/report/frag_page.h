#pragma once
// The page of a `boreas frag` output directory (docs/fragmentation.md): per policy the mean curves
// over seeds of GPU allocation and fragmentation against arrived GPU demand, drawn as inline SVG
// (no scripts), and the summary metrics as a table.

#include <string>
#include <vector>

#include "core/status.h"

namespace boreas::report {

// One policy's mean curve: the rows of its curve.csv whose seed is "mean".
struct FragCurve {
  std::string policy;
  std::vector<double> arrived_pct;
  std::vector<double> alloc_pct;
  std::vector<double> frag_amount_pct;
  std::vector<double> frag_ratio_pct;
  std::vector<double> unalloc_pct;
};

// True when `dir` holds at least one <policy>/curve.csv (what `boreas frag --out` writes).
bool is_frag_output(const std::string& dir);
// Every <policy>/curve.csv under `dir`, policies in name order; a file without mean rows or with a
// bad number is an error naming the file and line.
Result<std::vector<FragCurve>> read_frag_curves(const std::string& dir);
// The self-contained page.
std::string frag_html(const std::vector<FragCurve>& curves, const std::string& title);
Status write_frag_report(const std::string& dir, const std::string& out_path, const std::string& title);

}  // namespace boreas::report
