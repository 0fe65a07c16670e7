#pragma once
// The durable store: SQLite in WAL mode with versioned migrations and group commit.
// Writers queue mutations; one writer thread commits everything queued in one transaction and
// then acknowledges each mutation, so durability does not cost throughput (ARCHITECTURE §6).

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/status.h"
#include "server/store/shared_counter.h"
#include "server/store/sql.h"

struct sqlite3;

namespace boreas::server {

// Statements applied all-or-nothing; a failing mutation never spoils the rest of its group.
struct Mutation {
  std::vector<SqlStatement> statements;
};

struct StoreOptions {
  int32_t schema_version = 0;  // migrate up to this version; 0 = latest (older ones for tests)
  bool synchronous_full = true;  // fsync on every commit (else survives crashes, not power loss)
};

class Store {
 public:
  static Result<std::unique_ptr<Store>> open(const std::string& path, StoreOptions options = {});
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Queues a mutation; the future is set once it is committed (or failed).
  std::future<Status> write(Mutation m);
  Status write_sync(Mutation m) { return write(std::move(m)).get(); }
  // Reads through a separate connection; WAL lets it run beside the writer.
  Result<std::vector<SqlRow>> query(const SqlStatement& q);

  // Bumped after every change to the tokens table, in every process that opens this store
  // (the file `<path>-tokens`): the API drops its token cache when it sees a new value.
  uint64_t tokens_generation() const { return tokens_changed_->value(); }
  void note_tokens_changed() { tokens_changed_->bump(); }

  int32_t schema_version();
  uint64_t transactions_committed() const;
  // Mutations whose commit failed, and failed reads, since the store opened (for /metrics).
  uint64_t write_errors() const;
  uint64_t read_errors() const;

 private:
  struct Pending {
    Mutation mutation;
    std::promise<Status> done;
  };
  Store(sqlite3* writer, sqlite3* reader, std::unique_ptr<SharedCounter> tokens_changed);
  void writer_loop();
  void commit_batch(std::deque<Pending>& batch);

  sqlite3* writer_db_;
  sqlite3* reader_db_;
  std::unique_ptr<StatementCache> writer_stmts_;  // the writer thread's only
  std::unique_ptr<StatementCache> reader_stmts_;  // guarded by reader_mu_
  std::unique_ptr<SharedCounter> tokens_changed_;
  std::mutex reader_mu_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Pending> queue_;
  bool stopping_ = false;
  uint64_t commits_ = 0;
  uint64_t write_errors_ = 0;  // guarded by mu_
  std::atomic<uint64_t> read_errors_{0};
  std::thread writer_;
};

}  // namespace boreas::server
