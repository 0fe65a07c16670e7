#include "server/api/http_listener.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace boreas::server {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kSliceMs = 200;  // how often a waiting worker looks at the stop flag

// Waits until `fd` has `events` ready, the deadline passes or the server stops.
bool wait_for(int fd, short events, Clock::time_point deadline, const std::atomic<bool>& stopping) {
  while (!stopping.load()) {
    const auto remaining = deadline - Clock::now();
    if (remaining <= Clock::duration::zero()) {  // exact, as DeadlineStream::expired() sees it
      return false;
    }
    const int64_t left = std::chrono::ceil<std::chrono::milliseconds>(remaining).count();
    pollfd p{fd, events, 0};
    const int n = poll(&p, 1, static_cast<int>(std::min<int64_t>(left, kSliceMs)));
    if (n > 0) {
      return true;
    }
    if (n < 0 && errno != EINTR) {
      return false;
    }
  }
  return false;
}

Clock::time_point after(Duration d) {
  return Clock::now() + std::chrono::microseconds(d.us());
}

// A socket stream whose reads fail once the current request's deadline has passed, however
// steadily the bytes trickle in; reads are buffered (httplib reads header lines byte by byte).
class DeadlineStream : public httplib::Stream {
 public:
  DeadlineStream(int fd, std::string peer, int peer_port, const std::atomic<bool>& stopping)
      : fd_(fd), peer_(std::move(peer)), peer_port_(peer_port), stopping_(stopping) {}

  void set_deadline(Clock::time_point d) { deadline_ = d; }
  bool expired() const { return Clock::now() >= deadline_; }
  bool has_buffered() const { return pos_ < len_; }

  bool is_readable() const override { return has_buffered() || wait_for(fd_, POLLIN, deadline_, stopping_); }
  // Answers are written even while stopping: a change made durable must reach its client.
  bool is_writable() const override {
    static const std::atomic<bool> kNever{false};
    return wait_for(fd_, POLLOUT, after(Duration::seconds(5)), kNever);
  }

  ssize_t read(char* ptr, size_t size) override {
    if (!has_buffered()) {
      if (!wait_for(fd_, POLLIN, deadline_, stopping_)) {
        return -1;
      }
      const ssize_t n = recv(fd_, buf_, sizeof(buf_), 0);
      if (n <= 0) {
        return n;
      }
      pos_ = 0;
      len_ = static_cast<size_t>(n);
    }
    const size_t n = std::min(size, len_ - pos_);
    std::memcpy(ptr, buf_ + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    size_t sent = 0;
    while (sent < size) {
      if (!is_writable()) {
        return -1;
      }
      const ssize_t n = send(fd_, ptr + sent, size - sent, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        return -1;
      }
      sent += static_cast<size_t>(n);
    }
    return static_cast<ssize_t>(sent);
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = peer_;
    port = peer_port_;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage addr{};
    socklen_t len = sizeof(addr);
    char host[NI_MAXHOST] = {};
    char serv[NI_MAXSERV] = {};
    if (getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0 &&
        getnameinfo(reinterpret_cast<sockaddr*>(&addr), len, host, sizeof(host), serv, sizeof(serv),
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
      ip = host;
      port = std::atoi(serv);
    }
  }
  socket_t socket() const override { return fd_; }

 private:
  int fd_;
  std::string peer_;
  int peer_port_;
  const std::atomic<bool>& stopping_;
  Clock::time_point deadline_ = Clock::now();
  char buf_[4096];
  size_t pos_ = 0;
  size_t len_ = 0;
};

void refuse(int fd, const std::string& peer) {
  const std::string body =
      "{\"error\":\"too many open connections from " + peer + "; close idle ones or retry later\"}\n";
  const std::string reply =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
      "Retry-After: 1\r\nConnection: close\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body;
  (void)send(fd, reply.data(), reply.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  close(fd);
}

std::string peer_of(const sockaddr_storage& addr, socklen_t len, int& port) {
  char host[NI_MAXHOST] = {};
  char serv[NI_MAXSERV] = {};
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&addr), len, host, sizeof(host), serv, sizeof(serv),
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    port = 0;
    return "unknown";
  }
  port = std::atoi(serv);
  return host;
}

}  // namespace

GuardedServer::~GuardedServer() {
  shutdown();
  if (listen_fd_ >= 0) {
    close(listen_fd_);
  }
}

Result<int> GuardedServer::bind_port(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string where = host + ":" + std::to_string(port);
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || found == nullptr) {
    return io_error("cannot listen on " + where + ": unknown host; use an address such as 127.0.0.1");
  }
  const int fd = ::socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, found->ai_protocol);
  const int yes = 1;
  const bool ok = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes)) == 0 &&
                  ::bind(fd, found->ai_addr, found->ai_addrlen) == 0 && ::listen(fd, SOMAXCONN) == 0;
  freeaddrinfo(found);
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  int bound = 0;
  if (ok && getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    (void)peer_of(addr, len, bound);
  }
  if (!ok || bound <= 0) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) {
      close(fd);
    }
    return io_error("cannot listen on " + where + ": " + why +
                    "; is the port in use? use port 0 to pick a free one");
  }
  listen_fd_ = fd;
  return bound;
}

bool GuardedServer::admit(const std::string& peer) {
  std::lock_guard lock(mu_);
  int& mine = by_peer_[peer];
  if (open_ >= limits_.max_connections || mine >= limits_.per_peer) {
    if (mine == 0) {
      by_peer_.erase(peer);
    }
    return false;
  }
  mine += 1;
  open_ += 1;
  return true;
}

void GuardedServer::release(const std::string& peer) {
  std::lock_guard lock(mu_);
  open_ -= 1;
  if (--by_peer_[peer] <= 0) {
    by_peer_.erase(peer);
  }
}

void GuardedServer::serve() {
  workers_ = std::make_unique<httplib::ThreadPool>(static_cast<size_t>(limits_.max_connections));
  while (!stopping_.load()) {
    if (!wait_for(listen_fd_, POLLIN, Clock::now() + std::chrono::seconds(1), stopping_)) {
      continue;
    }
    sockaddr_storage addr{};
    socklen_t len = sizeof(addr);
    const int fd = accept4(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));  // out of descriptors: no busy loop
      }
      continue;
    }
    int port = 0;
    const std::string peer = peer_of(addr, len, port);
    if (!admit(peer)) {
      refuse(fd, peer);
      continue;
    }
    const int yes = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
    workers_->enqueue([this, fd, peer, port] {
      handle(fd, peer, port);
      release(peer);
    });
  }
  workers_->shutdown();
}

void GuardedServer::shutdown() {
  stopping_.store(true);
}

// Keep-alive: each request has its own deadline; between requests the connection may idle.
void GuardedServer::handle(int fd, const std::string& peer, int peer_port) {
  DeadlineStream strm(fd, peer, peer_port, stopping_);
  for (int n = 0; n < limits_.keep_alive_max && !stopping_.load(); ++n) {
    const Duration wait = n == 0 ? limits_.request_deadline : limits_.idle_timeout;
    if (!strm.has_buffered() && !wait_for(fd, POLLIN, after(wait), stopping_)) {
      break;
    }
    strm.set_deadline(after(limits_.request_deadline));
    bool closed = false;
    // A request cut at its deadline was answered 400 by httplib; the connection ends with it.
    if (!process_request(strm, n + 1 == limits_.keep_alive_max, closed, nullptr) || closed ||
        strm.expired()) {
      break;
    }
  }
  ::shutdown(fd, SHUT_RDWR);
  close(fd);
}

}  // namespace boreas::server
