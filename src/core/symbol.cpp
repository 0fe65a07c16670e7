#include "core/symbol.h"

namespace boreas {

SymbolTable::SymbolTable() : offsets_{0, 0} { index_.emplace("", 0); }

Symbol SymbolTable::append(std::string_view s) {
  const auto index = static_cast<uint32_t>(offsets_.size() - 1);
  bytes_.append(s);
  offsets_.push_back(static_cast<uint32_t>(bytes_.size()));
  return Symbol(index);
}

Symbol SymbolTable::intern(std::string_view s) {
  if (auto it = index_.find(std::string(s)); it != index_.end()) {
    return Symbol(it->second);
  }
  const Symbol sym = append(s);
  index_.emplace(std::string(s), sym.index());
  return sym;
}

Symbol SymbolTable::add(std::string_view s) { return s.empty() ? Symbol() : append(s); }

std::string_view SymbolTable::view(Symbol s) const {
  const uint32_t begin = offsets_[s.index()];
  const uint32_t end = offsets_[s.index() + 1];
  return std::string_view(bytes_).substr(begin, end - begin);
}

Symbol SymbolTable::find(std::string_view s) const {
  const auto it = index_.find(std::string(s));
  return it == index_.end() ? Symbol() : Symbol(it->second);
}

size_t SymbolTable::bytes_used() const {
  return bytes_.capacity() + offsets_.capacity() * sizeof(uint32_t) + index_.size() * 64;
}

}  // namespace boreas
