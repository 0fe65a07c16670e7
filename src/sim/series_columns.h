#pragma once
// The optional columns of timeseries.csv (docs/formats/sim-output.md): per queue, the GPUs its jobs
// held and its guarantee (runs with a queue tree); per zone, IT power and mean GPU temperature
// (runs with power physics). Runs without either keep the five base columns, byte for byte.

#include <fmt/format.h>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/run.h"

namespace boreas::sim {

struct SeriesColumn {
  std::string name;            // e.g. "gpus:prod", "guarantee:prod", "power_kw:liquid", "temp_c:air"
  std::vector<double> values;  // one per result.samples entry
  int decimals = 0;
};

// ",value" with `decimals` places, as fmt's "{:.Nf}" writes it, appended to `out` (one cell of
// timeseries.csv). A whole number with no places (GPU counts, guarantees: most columns) takes an
// integer path: the same text without the float formatting.
void append_column_value(fmt::memory_buffer& out, double value, int decimals);

// append_column_value for one column, row after row: a value with the bits (and places) of the
// row before takes the text written then. The queues' GPUs and guarantees repeat for long stretches.
class ColumnText {
 public:
  void append(fmt::memory_buffer& out, double value, int decimals);

 private:
  bool known_ = false;
  uint64_t bits_ = 0;
  int decimals_ = 0;
  std::string text_;
};

std::vector<SeriesColumn> series_columns(const RunOutput& run, const Cluster& cluster, std::span<const JobSpec> jobs,
                                         const SymbolTable& symbols);

}  // namespace boreas::sim
