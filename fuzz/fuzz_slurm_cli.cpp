// libFuzzer target: the parsers of Slurm's own output (src/slurm/): squeue/sinfo --json, GRES
// strings, host lists and `scontrol show topology`, all on the same arbitrary text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "slurm/gres.h"
#include "slurm/hostlist.h"
#include "slurm/state.h"
#include "slurm/topology.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)boreas::slurm::parse_jobs_json(text);
  (void)boreas::slurm::parse_nodes_json(text);
  (void)boreas::slurm::parse_gres_list(text);
  (void)boreas::slurm::expand_hostlist(text);
  (void)boreas::slurm::expand_ranges(text);
  (void)boreas::slurm::parse_topology(text);
  return 0;
}
