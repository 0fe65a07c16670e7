// libFuzzer target: experiment files (YAML) and seed lists on arbitrary text; a bad file must give
// a located error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/experiment_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)boreas::cli::parse_experiment(text, "fuzz.yaml");
  (void)boreas::cli::parse_seed_list(text);
  return 0;
}
