#pragma once
// runs.csv's fields that cost the most per line: a CSV field quoted only when it needs it, and a
// run's nodes column (its nodes, each once in GPU order, ';'-separated).

#include <fmt/format.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ids.h"
#include "core/topology.h"

namespace boreas::sim {

// `s` as a CSV field: in double quotes, with each quote doubled, when it holds ',', '"' or '\n'.
void append_csv_field(fmt::memory_buffer& out, std::string_view s);

// The nodes column for one cluster. Each GPU's node is looked up once, at construction, by the
// binary search over the nodes' first GPUs that the writer did per GPU before; a GPU list that is
// already sorted is read in place; names are appended straight to the line unless some node's
// name needs quotes (then the field is built first and quoted as a whole).
class RunNodesField {
 public:
  explicit RunNodesField(const Cluster& cluster);
  // Appends the field of a run on `gpus` (in any order).
  void append(fmt::memory_buffer& out, std::span<const GpuId> gpus);

 private:
  template <typename Append>
  void each_node(std::span<const GpuId> sorted, Append append_name) const;

  const Cluster& cluster_;
  std::vector<uint32_t> node_of_gpu_;
  bool names_need_quotes_ = false;
  std::vector<GpuId> sorted_;  // scratch: an unsorted list, sorted
  std::string joined_;         // scratch: the field before quoting
};

}  // namespace boreas::sim
