#include "server/api/http_listener.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

namespace boreas::server {
namespace {

using Clock = std::chrono::steady_clock;

int connect_to(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  timeval tv{3, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  return fd;
}

// Everything the server sends until it closes (or 3 s pass).
std::string reply(int fd) {
  std::string out;
  char buf[512];
  for (ssize_t n; (n = recv(fd, buf, sizeof(buf), 0)) > 0;) {
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

// True once the server has closed the connection (data it sent first is read and dropped).
bool closed_by_server(int fd) {
  char buf[512];
  for (;;) {
    const ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
    if (n == 0) {
      return true;
    }
    if (n < 0) {
      return false;
    }
  }
}

class ListenerTest : public ::testing::Test {
 protected:
  void start(ListenerLimits limits) {
    server_ = std::make_unique<GuardedServer>(limits);
    server_->Get("/ping", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("pong", "text/plain");
    });
    auto port = server_->bind_port("127.0.0.1", 0);
    ASSERT_TRUE(port.is_ok()) << port.status().message();
    port_ = *port;
    thread_ = std::thread([this] { server_->serve(); });
  }
  void TearDown() override {
    server_->shutdown();
    thread_.join();
  }
  std::unique_ptr<GuardedServer> server_;
  std::thread thread_;
  int port_ = 0;
};

TEST_F(ListenerTest, AnswersAWholeRequest) {
  start({});
  const int fd = connect_to(port_);
  const std::string req = "GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  ASSERT_EQ(send(fd, req.data(), req.size(), 0), static_cast<ssize_t>(req.size()));
  const std::string r = reply(fd);
  EXPECT_EQ(r.rfind("HTTP/1.1 200", 0), 0u) << r;
  EXPECT_NE(r.find("pong"), std::string::npos) << r;
  close(fd);
}

// A header line every 100 ms keeps each read short of any per-read timeout; the request's own
// deadline (400 ms) still closes the connection.
TEST_F(ListenerTest, TricklingRequestIsCutAtItsDeadline) {
  start({.request_deadline = Duration::millis(400)});
  const int fd = connect_to(port_);
  const auto t0 = Clock::now();
  bool closed = false;
  for (int i = 0; i < 30 && !closed; ++i) {
    const std::string line = i == 0 ? "GET /ping HTTP/1.1\r\n" : "X-" + std::to_string(i) + ": y\r\n";
    closed = send(fd, line.data(), line.size(), MSG_NOSIGNAL) < 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    closed = closed || closed_by_server(fd);
  }
  const double took = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_TRUE(closed) << "still open after " << took << " s";
  EXPECT_GE(took, 0.4);
  EXPECT_LT(took, 1.5);
  close(fd);
}

TEST_F(ListenerTest, APeerOverItsCapIsAnswered503AtOnce) {
  start({.per_peer = 2});
  const int a = connect_to(port_);
  const int b = connect_to(port_);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // both admitted and idle
  const int c = connect_to(port_);
  const std::string r = reply(c);
  EXPECT_EQ(r.rfind("HTTP/1.1 503", 0), 0u) << r;
  EXPECT_NE(r.find("too many open connections from 127.0.0.1"), std::string::npos) << r;
  close(a);
  close(b);
  close(c);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the workers see the closes
  const int d = connect_to(port_);
  const std::string req = "GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  ASSERT_EQ(send(d, req.data(), req.size(), 0), static_cast<ssize_t>(req.size()));
  EXPECT_EQ(reply(d).rfind("HTTP/1.1 200", 0), 0u);
  close(d);
}

}  // namespace
}  // namespace boreas::server
