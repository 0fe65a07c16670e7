#pragma once
// A submit's share of one GPU (docs/live.md, "Sharing a GPU"): `gpus` as a fraction (0.5) and/or
// `gpu_memory` ("20G"). The daemon runs such a job on one GPU beside other shares (MPS), never
// over-committing the GPU's compute (milli) or memory.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "server/jobs/live_job.h"

namespace boreas::server {

// `gpus`: a whole number 0..4096, or a fraction 0.001..0.999 to a thousandth (a share of one GPU:
// gpus 1, gpu_milli 1..999).
Status read_gpus(const nlohmann::json& v, SubmitRequest& r);
// `gpu_memory`: MiB as an integer or a size as `memory` takes it ("20G"), 1 MiB to 1 TiB; checked
// against the cluster's GPUs at submit.
Status read_gpu_memory(const nlohmann::json& v, SubmitRequest& r);
// After every field was read: `gpu_memory` without `gpus` asks for one GPU; with any other whole
// count it is an error (a memory limit is for a share of one GPU).
Status check_share_request(SubmitRequest& r, bool gpus_given);
// `gpus` (0.5 for a share) and `gpu_memory` (MiB) as read_gpus and read_gpu_memory read them back.
void write_gpus(const SubmitRequest& r, nlohmann::json& j);

struct ShareSize {
  uint32_t milli = 0;  // 0: the request does not fit a GPU of that memory
  uint64_t bytes = 0;
};
// The share a request takes on a GPU of `capacity` bytes: the milli asked, else the memory's part
// of the GPU rounded up; the memory asked, else the milli's part of the memory rounded down.
ShareSize share_on(const SubmitRequest& r, uint64_t capacity);
// "40 GiB", or "12345 MiB" when not whole GiB.
std::string memory_text(uint64_t bytes);
// "0.5 GPU, 40 GiB": a share held, for the CLI and reasons.
std::string describe_share(uint32_t milli, uint64_t bytes);
// What a request asks: "0.5 GPU", "20 GiB of GPU memory" or "0.5 GPU with 20 GiB".
std::string describe_request(const SubmitRequest& r);

}  // namespace boreas::server
