#include "models/param_check.h"

#include <cmath>

namespace boreas::models {

ParamCheck& ParamCheck::fail(std::string_view field, std::string_view range, double v) {
  if (status_.is_ok()) {
    status_ = invalid_argument(model_ + " model: " + std::string(field) + " must be " + std::string(range) +
                               ", got " + std::to_string(v) + "; fix it in the model parameters");
  }
  return *this;
}

ParamCheck& ParamCheck::positive(std::string_view field, double v) {
  return v > 0 && std::isfinite(v) ? *this : fail(field, "a positive number", v);
}

ParamCheck& ParamCheck::at_least(std::string_view field, double v, double lo) {
  return v >= lo && std::isfinite(v) ? *this : fail(field, ">= " + std::to_string(lo), v);
}

ParamCheck& ParamCheck::in(std::string_view field, double v, double lo, double hi) {
  if (v >= lo && v <= hi) {
    return *this;
  }
  return fail(field, "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", v);
}

}  // namespace boreas::models
