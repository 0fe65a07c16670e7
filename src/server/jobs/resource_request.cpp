#include "server/jobs/resource_request.h"

#include <cmath>
#include <string>

#include "core/size_units.h"

namespace boreas::server {
namespace {

constexpr double kMaxCpus = 4096;
constexpr int64_t kMaxMemoryMib = int64_t{1} << 30;  // 1 PiB

Status size_error(const std::string& field, const std::string& what) {
  return invalid_argument("$." + field + ": " + what +
                          "; give MiB as an integer, or a size such as \"512M\", \"4G\" or \"1T\"");
}

}  // namespace

Status read_cpus(const nlohmann::json& v, SubmitRequest& r) {
  if (!v.is_number()) {
    return invalid_argument("$.cpus: expected a number of CPUs (e.g. 4 or 0.5), got " + v.dump());
  }
  const double cpus = v.get<double>();
  const auto milli = static_cast<int64_t>(std::llround(cpus * 1000));
  if (!(cpus <= kMaxCpus) || milli < 1) {
    return invalid_argument("$.cpus: " + v.dump() + " is out of range; give 0.001 to 4096 CPUs");
  }
  r.cpu_milli = milli;
  return Status::ok();
}

Result<int64_t> read_size_mib(const nlohmann::json& v, const std::string& field, int64_t max_mib,
                              const std::string& range) {
  Result<int64_t> mib = size_error(field, "expected an integer or a string, got " + v.dump());
  if (v.is_number_unsigned()) {
    mib = v.get<uint64_t>() > static_cast<uint64_t>(max_mib) ? max_mib + 1 : v.get<int64_t>();
  } else if (v.is_string()) {
    mib = parse_size_mib(v.get<std::string>());
  }
  if (!mib.is_ok()) {
    return v.is_string() ? size_error(field, mib.status().message()) : mib.status();
  }
  if (*mib < 1 || *mib > max_mib) {
    return size_error(field, v.dump() + " is out of range (" + range + ")");
  }
  return mib;
}

Status read_memory(const nlohmann::json& v, SubmitRequest& r) {
  auto mib = read_size_mib(v, "memory", kMaxMemoryMib, "1 MiB to 1 PiB");
  if (!mib.is_ok()) {
    return mib.status();
  }
  r.memory_mib = *mib;
  return Status::ok();
}

void write_resources(const SubmitRequest& r, nlohmann::json& j) {
  if (r.cpu_milli > 0) {
    if (r.cpu_milli % 1000 == 0) {
      j["cpus"] = r.cpu_milli / 1000;
    } else {
      j["cpus"] = static_cast<double>(r.cpu_milli) / 1000;
    }
  }
  if (r.memory_mib > 0) {
    j["memory"] = r.memory_mib;
  }
}

}  // namespace boreas::server
