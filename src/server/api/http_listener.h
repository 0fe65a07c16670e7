#pragma once
// The API's listener. cpp-httplib parses and routes requests, but the accept loop and the reads
// are ours, so slow or greedy clients cannot starve the others (docs/live.md, "Slow clients"):
// each connection gets its own worker up to `max_connections`; one peer address may hold at
// most `per_peer` of them (more are answered 503 and closed); a request must arrive whole within
// `request_deadline`, and an idle keep-alive connection closes after `idle_timeout`.

#include <httplib.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/status.h"
#include "core/time.h"

namespace boreas::server {

struct ListenerLimits {
  int max_connections = 128;  // one worker thread each
  int per_peer = 32;
  Duration request_deadline = Duration::seconds(10);  // headers and body, from the first byte awaited
  Duration idle_timeout = Duration::seconds(5);       // between keep-alive requests
  int keep_alive_max = 100;                           // requests per connection
};

class GuardedServer : public httplib::Server {
 public:
  explicit GuardedServer(ListenerLimits limits) : limits_(limits) {}
  ~GuardedServer() override;

  // Binds host:port (port 0 = any free port) and returns the port bound.
  Result<int> bind_port(const std::string& host, int port);
  void serve();     // accepts until shutdown(); returns once every connection is closed
  void shutdown();  // from any thread

 private:
  bool admit(const std::string& peer);
  void release(const std::string& peer);
  void handle(int fd, const std::string& peer, int peer_port);

  ListenerLimits limits_;
  int listen_fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::mutex mu_;
  int open_ = 0;
  std::map<std::string, int> by_peer_;
  std::unique_ptr<httplib::ThreadPool> workers_;
};

}  // namespace boreas::server
