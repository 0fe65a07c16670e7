// libFuzzer target: one serving request/instance trace reader (BOREAS_FUZZ_FORMAT: azure_llm,
// mooncake, dlrm) on arbitrary bytes. Any outcome is fine except a crash, a hang, a sanitizer
// report, or an error without a location.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "serving/dlrm_instances.h"
#include "serving/request_trace.h"

namespace {

void check(const boreas::Status& s) {
  if (s.message().find("fuzz.in:") == std::string::npos) {
    std::abort();  // every error must say where
  }
}

void check_trace(const boreas::Result<boreas::serving::RequestTrace>& t) {
  if (!t.is_ok()) {
    check(t.status());
    return;
  }
  int64_t last = 0;
  for (const auto& r : t->requests) {
    if (r.arrival_us < last || r.input_tokens < 1 || r.output_tokens < 1 ||
        r.first_block + r.block_count > t->blocks.size()) {
      std::abort();  // sorted, positive lengths, blocks in range
    }
    last = r.arrival_us;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string format = BOREAS_FUZZ_FORMAT;
  if (format == "azure_llm") {
    check_trace(boreas::serving::parse_azure_llm_csv(text, "fuzz.in"));
  } else if (format == "mooncake") {
    check_trace(boreas::serving::parse_mooncake_jsonl(text, "fuzz.in"));
  } else {
    auto d = boreas::serving::parse_dlrm_instances_csv(text, "fuzz.in");
    if (!d.is_ok()) {
      check(d.status());
    }
  }
  return 0;
}
