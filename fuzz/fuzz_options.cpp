// libFuzzer target: the --map and --filter option parsers on arbitrary text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "trace/column_map.h"
#include "trace/transform.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)boreas::trace::parse_column_map(text);
  (void)boreas::trace::parse_filter(text);
  return 0;
}
