#pragma once
// Compact strings for large job tables: a JobSpec stores 4-byte Symbols instead of std::string,
// so a million jobs stay within ~100 bytes each (issue 3's memory target).

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace boreas {

class Symbol {
 public:
  constexpr Symbol() = default;  // the empty string
  constexpr explicit Symbol(uint32_t index) : index_(index) {}
  constexpr uint32_t index() const { return index_; }
  constexpr bool empty() const { return index_ == 0; }
  constexpr auto operator<=>(const Symbol&) const = default;

 private:
  uint32_t index_ = 0;
};

// Owns the bytes behind Symbols. `intern` deduplicates (queues, users, GPU types); `add` does not
// (per-job names, which are unique and would only bloat the lookup map).
class SymbolTable {
 public:
  SymbolTable();
  Symbol intern(std::string_view s);
  Symbol add(std::string_view s);
  std::string_view view(Symbol s) const;
  // Returns the empty Symbol when `s` was never interned.
  Symbol find(std::string_view s) const;
  // Number of symbols, counting the empty one.
  size_t size() const { return offsets_.size() - 1; }
  size_t bytes_used() const;

 private:
  Symbol append(std::string_view s);
  std::string bytes_;
  std::vector<uint32_t> offsets_;  // offsets_[i]..offsets_[i+1] are the bytes of Symbol i
  std::unordered_map<std::string, uint32_t> index_;
};

}  // namespace boreas
