// libFuzzer target: the shared duration parser (core/duration.h) on arbitrary text; whatever it
// accepts must print in squeue's form and read back to the same whole seconds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/duration.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto d = boreas::parse_duration(text);
  if (d.is_ok()) {
    const auto again = boreas::parse_duration(boreas::format_slurm_duration(*d));
    if (!again.is_ok() || again->us() != d->us()) {
      std::abort();
    }
  }
  return 0;
}
