#pragma once
// Which GPU counts a live job may ask for: one that fits a node always; a larger gang only under an
// executor that spans nodes (Slurm), and only as whole nodes of the largest size, e.g. 16 = 2 x 8 on
// 8-GPU nodes (Slurm's --gres is per node, so every node of a job gets the same count). The local
// executor runs a job on this one host.

#include <cstdint>
#include <string>

#include "core/status.h"
#include "core/topology.h"

namespace boreas::server {

// The most GPUs one node of the type has (any type when `type` is empty).
uint32_t largest_node(const Cluster& c, const std::string& type);

// Whether `gpus` GPUs of `type` can ever run as one job; the error names $.gpus and how to fix it.
Status check_gang_shape(const Cluster& c, uint32_t gpus, const std::string& type, bool spans_nodes);

}  // namespace boreas::server
