#include "server/store/shared_counter.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace boreas::server {
namespace {

constexpr size_t kSize = sizeof(uint64_t);

Status counter_error(const std::string& path, const char* what) {
  return io_error("cannot " + std::string(what) + " " + path + ": " + std::strerror(errno) +
                  "; the data directory must be writable by the daemon and `boreas token`");
}

}  // namespace

Result<std::unique_ptr<SharedCounter>> SharedCounter::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return counter_error(path, "open");
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || (static_cast<size_t>(st.st_size) < kSize && ftruncate(fd, kSize) != 0)) {
    Status s = counter_error(path, "size");
    ::close(fd);
    return s;
  }
  void* p = mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);  // the mapping stays
  if (p == MAP_FAILED) {
    return counter_error(path, "map");
  }
  return std::unique_ptr<SharedCounter>(new SharedCounter(static_cast<uint64_t*>(p)));
}

SharedCounter::~SharedCounter() { munmap(word_, kSize); }

uint64_t SharedCounter::value() const { return std::atomic_ref<uint64_t>(*word_).load(std::memory_order_acquire); }

void SharedCounter::bump() { std::atomic_ref<uint64_t>(*word_).fetch_add(1, std::memory_order_acq_rel); }

}  // namespace boreas::server
