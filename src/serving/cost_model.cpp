#include "serving/cost_model.h"

#include <algorithm>

namespace boreas::serving {

double CostModel::iteration_s(const IterationWork& w) const {
  const double tokens = static_cast<double>(w.prefill_tokens + w.decode_tokens);
  if (tokens <= 0) {
    return 0;
  }
  const double flops = 2 * model_.params * tokens + 4.0 * model_.layers * model_.hidden * w.prefill_attention_pairs +
                       4.0 * model_.layers * model_.hidden * static_cast<double>(w.decode_tokens > 0 ? w.kv_tokens_read : 0);
  const double bytes = model_.weight_bytes() + static_cast<double>(w.kv_tokens_read) * model_.kv_bytes_per_token;
  const double compute_s = flops / (hw_.tp * hw_.peak_flops * k_.compute_efficiency);
  const double memory_s = bytes / (hw_.tp * hw_.bandwidth_bps * k_.bandwidth_efficiency);
  return k_.overhead_s + std::max(compute_s, memory_s);
}

double prefill_pairs(int64_t done, int64_t chunk) {
  // positions done+1 .. done+chunk
  return static_cast<double>(chunk) * (static_cast<double>(done) + (static_cast<double>(chunk) + 1) / 2);
}

}  // namespace boreas::serving
