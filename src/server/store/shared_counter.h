#pragma once
// A 64-bit counter in a small file that every process opening the store maps: `boreas token
// revoke` bumps it after its commit and the daemon reads it on every request without a system
// call, so a cache of the store's rows (the daemon's tokens) is dropped before the next request.

#include <cstdint>
#include <memory>
#include <string>

#include "core/status.h"

namespace boreas::server {

class SharedCounter {
 public:
  // Maps PATH (created, 8 bytes of zeros, when missing).
  static Result<std::unique_ptr<SharedCounter>> open(const std::string& path);
  ~SharedCounter();
  SharedCounter(const SharedCounter&) = delete;
  SharedCounter& operator=(const SharedCounter&) = delete;

  uint64_t value() const;  // acquire: writes made before the bump are visible after it is seen
  void bump();             // release

 private:
  explicit SharedCounter(uint64_t* word) : word_(word) {}
  uint64_t* word_;  // in the shared mapping
};

}  // namespace boreas::server
