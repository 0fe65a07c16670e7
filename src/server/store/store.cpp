#include "server/store/store.h"

#include <algorithm>

#include <sqlite3.h>

#include "server/store/migrations.h"

namespace boreas::server {
namespace {

Result<sqlite3*> open_connection(const std::string& path) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string msg = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return io_error("cannot open store " + path + ": " + msg +
                    "; check that the data directory exists and is writable");
  }
  sqlite3_busy_timeout(db, 10'000);
  return db;
}

Status configure(sqlite3* db, bool synchronous_full) {
  BOREAS_RETURN_IF_ERROR(sql_exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;"));
  return sql_exec(db, synchronous_full ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;");
}

Result<int32_t> applied_version(sqlite3* db) {
  BOREAS_RETURN_IF_ERROR(sql_exec(db,
                                  "CREATE TABLE IF NOT EXISTS schema_migrations ("
                                  " version INTEGER PRIMARY KEY, description TEXT NOT NULL,"
                                  " applied_us INTEGER NOT NULL DEFAULT 0);"));
  std::vector<SqlRow> rows;
  BOREAS_RETURN_IF_ERROR(
      sql_run(db, {"SELECT COALESCE(MAX(version), 0) FROM schema_migrations", {}}, &rows));
  return static_cast<int32_t>(as_int(rows.at(0).at(0)));
}

Status apply_migration(sqlite3* db, const Migration& m) {
  BOREAS_RETURN_IF_ERROR(sql_exec(db, "BEGIN IMMEDIATE;"));
  Status s = sql_exec(db, m.sql);
  if (s.is_ok()) {
    s = sql_run(db, {"INSERT INTO schema_migrations(version, description) VALUES (?1, ?2)",
                     {int64_t{m.version}, std::string(m.description)}});
  }
  if (!s.is_ok()) {
    (void)sql_exec(db, "ROLLBACK;");
    return s.with_context("schema migration " + std::to_string(m.version) + ": ");
  }
  return sql_exec(db, "COMMIT;");
}

Status migrate(sqlite3* db, int32_t target) {
  auto current = applied_version(db);
  if (!current.is_ok()) {
    return current.status();
  }
  if (*current > latest_schema_version()) {
    return unsupported("store schema version " + std::to_string(*current) +
                       " is newer than this boreas (" + std::to_string(latest_schema_version()) +
                       "); upgrade boreas");
  }
  for (const Migration& m : schema_migrations()) {
    if (m.version > *current && m.version <= target) {
      BOREAS_RETURN_IF_ERROR(apply_migration(db, m));
    }
  }
  return Status::ok();
}

Status run_mutation(sqlite3* db, StatementCache& stmts, const Mutation& m) {
  BOREAS_RETURN_IF_ERROR(stmts.run({"SAVEPOINT m", {}}));
  for (const SqlStatement& st : m.statements) {
    Status s = stmts.run(st);
    if (!s.is_ok()) {
      (void)sql_exec(db, "ROLLBACK TO m; RELEASE m;");
      return s;
    }
  }
  return stmts.run({"RELEASE m", {}});
}

}  // namespace

Result<std::unique_ptr<Store>> Store::open(const std::string& path, StoreOptions options) {
  auto writer = open_connection(path);
  if (!writer.is_ok()) {
    return writer.status();
  }
  const int32_t target = options.schema_version > 0 ? options.schema_version : latest_schema_version();
  Status s = configure(*writer, options.synchronous_full);
  if (s.is_ok()) {
    s = migrate(*writer, target);
  }
  auto tokens_changed = s.is_ok() ? SharedCounter::open(path + "-tokens")
                                  : Result<std::unique_ptr<SharedCounter>>(s);
  auto reader = tokens_changed.is_ok() ? open_connection(path) : Result<sqlite3*>(tokens_changed.status());
  if (!reader.is_ok()) {
    sqlite3_close(*writer);
    return reader.status();
  }
  return std::unique_ptr<Store>(new Store(*writer, *reader, std::move(*tokens_changed)));
}

Store::Store(sqlite3* writer, sqlite3* reader, std::unique_ptr<SharedCounter> tokens_changed)
    : writer_db_(writer),
      reader_db_(reader),
      writer_stmts_(std::make_unique<StatementCache>(writer)),
      reader_stmts_(std::make_unique<StatementCache>(reader)),
      tokens_changed_(std::move(tokens_changed)) {
  writer_ = std::thread([this] { writer_loop(); });
}

Store::~Store() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  writer_.join();
  reader_stmts_.reset();  // a connection with statements left does not close
  writer_stmts_.reset();
  sqlite3_close(reader_db_);
  sqlite3_close(writer_db_);
}

std::future<Status> Store::write(Mutation m) {
  Pending p{std::move(m), {}};
  auto fut = p.done.get_future();
  {
    std::lock_guard lock(mu_);
    if (stopping_) {
      p.done.set_value(internal_error("store is closing; the write was not made"));
      return fut;
    }
    queue_.push_back(std::move(p));
  }
  cv_.notify_one();
  return fut;
}

void Store::writer_loop() {
  for (;;) {
    std::deque<Pending> batch;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) {
        return;  // stopping and drained
      }
      batch.swap(queue_);
    }
    commit_batch(batch);
  }
}

void Store::commit_batch(std::deque<Pending>& batch) {
  std::vector<Status> results;
  results.reserve(batch.size());
  Status begun = writer_stmts_->run({"BEGIN IMMEDIATE", {}});
  for (Pending& p : batch) {
    results.push_back(begun.is_ok() ? run_mutation(writer_db_, *writer_stmts_, p.mutation) : begun);
  }
  Status committed = begun.is_ok() ? writer_stmts_->run({"COMMIT", {}}) : begun;
  if (!committed.is_ok() && begun.is_ok()) {
    (void)sql_exec(writer_db_, "ROLLBACK;");
  }
  std::vector<Status> answers;
  answers.reserve(batch.size());
  for (size_t i = 0; i < batch.size(); ++i) {
    answers.push_back(committed.is_ok() ? results[i] : committed);
  }
  {
    std::lock_guard lock(mu_);
    commits_ += committed.is_ok() ? 1 : 0;
    write_errors_ += static_cast<uint64_t>(
        std::count_if(answers.begin(), answers.end(), [](const Status& s) { return !s.is_ok(); }));
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    batch[i].done.set_value(std::move(answers[i]));
  }
}

Result<std::vector<SqlRow>> Store::query(const SqlStatement& q) {
  std::lock_guard lock(reader_mu_);
  std::vector<SqlRow> rows;
  if (Status s = reader_stmts_->run(q, &rows); !s.is_ok()) {
    read_errors_ += 1;
    return s;
  }
  return rows;
}

int32_t Store::schema_version() {
  auto rows = query({"SELECT COALESCE(MAX(version), 0) FROM schema_migrations", {}});
  return rows.is_ok() ? static_cast<int32_t>(as_int(rows->at(0).at(0))) : 0;
}

uint64_t Store::transactions_committed() const {
  std::lock_guard lock(mu_);
  return commits_;
}

uint64_t Store::write_errors() const {
  std::lock_guard lock(mu_);
  return write_errors_;
}

uint64_t Store::read_errors() const { return read_errors_.load(); }

}  // namespace boreas::server
