#pragma once
// A submit's `cpus` and `memory` (POST /v1/jobs): what the job holds on its node beside its GPUs,
// and its cgroup's cpu.max and memory.max. Absent = its share of the node (server/node_resources.h).

#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "server/jobs/live_job.h"

namespace boreas::server {

// `cpus`: a number of CPUs, fractions to a thousandth (0.5), from 0.001 to 4096.
Status read_cpus(const nlohmann::json& v, SubmitRequest& r);
// `memory`: MiB as an integer, or a string with a binary unit as sbatch --mem takes it: "512M",
// "4G", "4GiB", "1T" (K, M, G, T; a bare number is MiB). At least 1 MiB, at most 1 PiB.
Status read_memory(const nlohmann::json& v, SubmitRequest& r);
// A size in MiB as `memory` takes it, for the field `field` (errors name it), 1 to `max_mib`;
// `range` is that range in words for the error.
Result<int64_t> read_size_mib(const nlohmann::json& v, const std::string& field, int64_t max_mib,
                              const std::string& range);
// The fields a request set, in the form read_cpus and read_memory read back.
void write_resources(const SubmitRequest& r, nlohmann::json& j);

}  // namespace boreas::server
