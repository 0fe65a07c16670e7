#include "serving/cost_model.h"

#include <algorithm>

namespace boreas::serving {

double CostModel::compute_s(const IterationWork& w) const {
  const double tokens = static_cast<double>(w.prefill_tokens + w.decode_tokens);
  const double flops = 2 * model_.params * tokens + 4.0 * model_.layers * model_.hidden * w.prefill_attention_pairs +
                       4.0 * model_.layers * model_.hidden * static_cast<double>(w.decode_tokens > 0 ? w.kv_tokens_read : 0);
  return flops / (hw_.tp * hw_.peak_flops * k_.compute_efficiency);
}

double CostModel::memory_s(const IterationWork& w) const {
  const double bytes = model_.weight_bytes() + static_cast<double>(w.kv_tokens_read) * model_.kv_bytes_per_token;
  return bytes / (hw_.tp * hw_.bandwidth_bps * k_.bandwidth_efficiency);
}

double CostModel::iteration_s(const IterationWork& w) const {
  if (w.prefill_tokens + w.decode_tokens <= 0) {
    return 0;
  }
  return k_.overhead_s + std::max(compute_s(w), memory_s(w));
}

double prefill_pairs(int64_t done, int64_t chunk) {
  // positions done+1 .. done+chunk
  return static_cast<double>(chunk) * (static_cast<double>(done) + (static_cast<double>(chunk) + 1) / 2);
}

}  // namespace boreas::serving
