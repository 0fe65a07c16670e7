#pragma once
// Checks of model parameters, chained; the first failure is kept and says which model, which
// field, the allowed range and the value found, so a YAML loader can prefix its file:line.

#include <string>
#include <string_view>

#include "core/status.h"

namespace boreas::models {

class ParamCheck {
 public:
  explicit ParamCheck(std::string_view model) : model_(model) {}
  ParamCheck& positive(std::string_view field, double v);                  // v > 0, finite
  ParamCheck& at_least(std::string_view field, double v, double lo);       // v ≥ lo, finite
  ParamCheck& in(std::string_view field, double v, double lo, double hi);  // lo ≤ v ≤ hi
  Status status() const { return status_; }

 private:
  ParamCheck& fail(std::string_view field, std::string_view range, double v);

  std::string model_;
  Status status_;
};

}  // namespace boreas::models
