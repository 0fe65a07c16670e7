#pragma once
// Many fallible conversions as one: the values, or the first error.

#include <utility>
#include <vector>

#include "core/status.h"

namespace boreas {

// F applied to each element of IN in order (by reference: F may move from it); stops at the
// first error and returns it.
template <typename U, typename In, typename F>
Result<std::vector<U>> collect_results(In& in, F&& f) {
  std::vector<U> out;
  out.reserve(in.size());
  for (auto& item : in) {
    Result<U> r = f(item);
    if (!r.is_ok()) {
      return r.status();
    }
    out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace boreas
