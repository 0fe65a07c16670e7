// libFuzzer target: one trace reader (BOREAS_FUZZ_FORMAT) on arbitrary bytes. Any outcome is fine
// except a crash, a hang, a sanitizer report, or an error without a location.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "trace/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  boreas::trace::ReadOptions options;
  options.format = BOREAS_FUZZ_FORMAT;
  // Alternate the error policy on the first byte so both paths are explored.
  options.on_error = (size > 0 && (data[0] & 1) != 0) ? boreas::trace::OnError::kSkip
                                                        : boreas::trace::OnError::kFail;
  auto trace = boreas::trace::read_trace_string(text, "fuzz.in", options);
  if (!trace.is_ok() && trace.status().message().empty()) {
    std::abort();  // every error must say what and where
  }
  if (trace.is_ok()) {
    for (size_t i = 0; i < trace->jobs.size(); ++i) {
      if (trace->jobs[i].id.value() != i || (i > 0 && trace->jobs[i].submit < trace->jobs[i - 1].submit)) {
        std::abort();  // the Trace guarantees: dense ids, sorted by submit
      }
    }
  }
  return 0;
}
