#include "server/services/service_scale.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace boreas::server {

int32_t next_replica_count(int32_t current, int32_t desired, int64_t now_us, int64_t delay_us,
                           int64_t& low_since_us) {
  if (desired >= current) {
    low_since_us = -1;
    return desired;
  }
  if (low_since_us < 0) {
    low_since_us = now_us;
  }
  if (now_us - low_since_us < delay_us) {
    return current;
  }
  low_since_us = -1;
  return desired;
}

int64_t replica_backoff_us(int32_t failures, double interval_s) {
  constexpr double kMaxS = 300;
  if (failures <= 0) {
    return 0;
  }
  const double s = std::min(kMaxS, interval_s * std::pow(2.0, std::min(failures - 1, 30)));
  return static_cast<int64_t>(s * 1e6);
}

std::vector<uint32_t> newest_jobs(std::vector<uint32_t> jobs, size_t n) {
  std::sort(jobs.begin(), jobs.end(), std::greater<>());
  jobs.resize(std::min(n, jobs.size()));
  return jobs;
}

int32_t free_index(const std::set<int32_t>& used) {
  int32_t i = 0;
  while (used.count(i) > 0) {
    ++i;
  }
  return i;
}

int pick_port(const std::set<int>& used, int lo, int hi, const std::function<bool(int)>& bindable) {
  for (int p = lo; p <= hi; ++p) {
    if (used.count(p) == 0 && bindable(p)) {
      return p;
    }
  }
  return 0;
}

bool port_bindable(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return false;
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

}  // namespace boreas::server
