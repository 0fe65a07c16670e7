#pragma once
// Time of one engine iteration on a replica: a roofline (compute-bound from FLOPs at the GPUs'
// dense BF16 peak, memory-bound from weights plus KV bytes read at their bandwidth), each at a
// fitted fraction of peak, plus a fixed per-iteration overhead. The three constants are fitted to
// SplitwiseSim's profiled Llama-2-70B iterations (data/serving/, docs/serving.md "Calibration").

#include <cstdint>

namespace boreas::serving {

struct ModelShape {
  double params = 0;             // parameters
  int32_t layers = 0;
  int32_t hidden = 0;
  double kv_bytes_per_token = 0; // K and V over all layers
  double bytes_per_param = 2;    // BF16/FP16 weights

  double weight_bytes() const { return params * bytes_per_param; }
};

struct Hardware {
  double peak_flops = 0;      // per GPU, dense BF16
  double bandwidth_bps = 0;   // per GPU, bytes/s
  int32_t tp = 1;             // GPUs per replica (tensor parallel)
};

struct CostConstants {
  double compute_efficiency = 0.56;    // fitted: data/serving/fit_cost_model.py
  double bandwidth_efficiency = 0.84;  // fitted
  double overhead_s = 0.019;           // fitted, per iteration
};

// What one iteration does: new prompt tokens (prefill chunks), sequences decoding one token, the
// attention pairs of the prompt tokens (sum over them of their position), and KV tokens read.
struct IterationWork {
  int64_t prefill_tokens = 0;
  int64_t decode_tokens = 0;
  double prefill_attention_pairs = 0;
  int64_t kv_tokens_read = 0;
};

class CostModel {
 public:
  CostModel(ModelShape model, Hardware hw, CostConstants k = {}) : model_(model), hw_(hw), k_(k) {}

  double iteration_s(const IterationWork& w) const;
  // The two roofs of iteration_s, without the overhead.
  double compute_s(const IterationWork& w) const;
  double memory_s(const IterationWork& w) const;
  const ModelShape& model() const { return model_; }
  const Hardware& hardware() const { return hw_; }

 private:
  ModelShape model_;
  Hardware hw_;
  CostConstants k_;
};

// Attention pairs of prefilling tokens [done, done + chunk) of one prompt.
double prefill_pairs(int64_t done, int64_t chunk);

}  // namespace boreas::serving
