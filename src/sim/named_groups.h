#pragma once
// Per-job tallies kept by name (a queue, a priority class), found by the job's Symbol: a symbol's
// entry is looked up by name once, then by the symbol's index. Symbols whose names coincide (the
// empty symbol and a queue called "default") share one entry, exactly as a lookup by name each
// time would, so each entry sees its jobs in the same order.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/symbol.h"

namespace boreas::sim {

template <typename Value>
class NamedGroups {
 public:
  // `name_of(Symbol)` names a symbol's entry in `by_name`.
  template <typename NameOf>
  Value& of(Symbol s, std::map<std::string, Value>& by_name, NameOf name_of) {
    if (s.index() >= by_symbol_.size()) {
      by_symbol_.resize(s.index() + 1, nullptr);
    }
    Value*& found = by_symbol_[s.index()];
    if (found == nullptr) {
      found = &by_name[name_of(s)];  // std::map's entries stay put
    }
    return *found;
  }

 private:
  std::vector<Value*> by_symbol_;
};

}  // namespace boreas::sim
