#include "server/store/sql.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

namespace boreas::server {
namespace {

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};

class StatementCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
    db_.reset(raw);
    ASSERT_TRUE(sql_exec(db_.get(), "CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT);").is_ok());
    cache_ = std::make_unique<StatementCache>(db_.get());
  }
  void TearDown() override { cache_.reset(); }  // before the connection closes

  std::string value_of(int64_t k) {
    std::vector<SqlRow> rows;
    EXPECT_TRUE(cache_->run({"SELECT v FROM t WHERE k = ?1", {k}}, &rows).is_ok());
    return rows.size() == 1 ? as_text(rows[0][0]) : "<none>";
  }

  std::unique_ptr<sqlite3, DbCloser> db_;
  std::unique_ptr<StatementCache> cache_;
};

// One text prepared once, run with new parameters each time: each run sees its own bindings.
TEST_F(StatementCacheTest, ReusedStatementBindsEachRunsParameters) {
  const std::string insert = "INSERT INTO t(k, v) VALUES (?1, ?2)";
  ASSERT_TRUE(cache_->run({insert, {int64_t{1}, std::string("one")}}).is_ok());
  ASSERT_TRUE(cache_->run({insert, {int64_t{2}, std::string("two")}}).is_ok());
  EXPECT_EQ(value_of(1), "one");
  EXPECT_EQ(value_of(2), "two");
  EXPECT_EQ(value_of(3), "<none>");
  EXPECT_EQ(cache_->size(), 2u);  // the insert and the select
}

// A run that fails (duplicate key) leaves the cached statement usable for the next run.
TEST_F(StatementCacheTest, FailedRunLeavesStatementUsable) {
  const std::string insert = "INSERT INTO t(k, v) VALUES (?1, ?2)";
  ASSERT_TRUE(cache_->run({insert, {int64_t{1}, std::string("one")}}).is_ok());
  Status dup = cache_->run({insert, {int64_t{1}, std::string("again")}});
  EXPECT_FALSE(dup.is_ok());
  EXPECT_NE(dup.message().find("UNIQUE"), std::string::npos) << dup.message();
  EXPECT_TRUE(cache_->run({insert, {int64_t{2}, std::string("two")}}).is_ok());
  EXPECT_EQ(value_of(1), "one");
  EXPECT_EQ(value_of(2), "two");
}

// SQL built with literals cannot grow the cache past its capacity; the texts past it still run.
TEST_F(StatementCacheTest, DistinctTextsBeyondCapacityRunUncached) {
  const int64_t n = StatementCache::kCapacity + 10;
  for (int64_t k = 1; k <= n; ++k) {
    ASSERT_TRUE(cache_->run({"INSERT INTO t(k, v) VALUES (" + std::to_string(k) + ", 'x')", {}}).is_ok());
  }
  EXPECT_EQ(cache_->size(), StatementCache::kCapacity);
  std::vector<SqlRow> rows;
  ASSERT_TRUE(cache_->run({"SELECT COUNT(*) FROM t", {}}, &rows).is_ok());  // past capacity: uncached
  EXPECT_EQ(as_int(rows.at(0).at(0)), n);
}

// A text that does not parse is an error naming the statement, and is not kept.
TEST_F(StatementCacheTest, BadSqlIsAnErrorAndNotKept) {
  Status s = cache_->run({"SELEC v FROM t", {}});
  EXPECT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("SELEC v FROM t"), std::string::npos) << s.message();
  EXPECT_EQ(cache_->size(), 0u);
}

}  // namespace
}  // namespace boreas::server
