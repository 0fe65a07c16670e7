#pragma once
// Nodes and pods of the packing model for the hand-checked frag tests.

#include <cstdint>
#include <initializer_list>

#include "frag/model.h"

namespace boreas::frag::builders {

// A node of `cpu` milli-CPU with one GPU per entry of `gpus` (its free milli), roomy memory.
inline Node node(int64_t cpu, std::initializer_list<int16_t> gpus, int32_t type = 0) {
  Node n;
  n.cpu_left = n.cpu_cap = cpu;
  n.mem_left = 1 << 20;
  n.type_bit = type;
  for (int16_t g : gpus) {
    n.gpu_left[n.gpu_count++] = g;
  }
  return n;
}

// A pod of `cpu` milli-CPU and `gpus` GPUs of `milli` each (0 GPUs: CPU only), of `types` (0: any).
inline PodShape pod(int64_t cpu, uint32_t gpus, int32_t milli, TypeMask types = 0) {
  PodShape p;
  p.cpu_milli = cpu;
  p.gpus = gpus;
  p.gpu_milli = gpus == 0 ? 0 : milli;
  p.types = types;
  return p;
}

}  // namespace boreas::frag::builders
