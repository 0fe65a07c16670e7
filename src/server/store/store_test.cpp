#include "server/store/store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <thread>

#include "server/store/migrations.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

Mutation insert_job(int64_t id) {
  return {{{"INSERT INTO jobs(id, spec, queue, owner, state, submit_us, updated_us) "
            "VALUES (?1, '{}', 'q', 'u', 'pending', ?1, ?1)",
            {id}}}};
}

int64_t count_jobs(Store& store) {
  auto rows = store.query({"SELECT COUNT(*) FROM jobs", {}});
  EXPECT_TRUE(rows.is_ok());
  return rows.is_ok() ? as_int(rows->at(0).at(0)) : -1;
}

TEST(Store, OpensInWalModeAtLatestSchema) {
  TempDir dir;
  auto store = Store::open(dir.path() + "/boreas.db");
  ASSERT_TRUE(store.is_ok()) << store.status().message();
  EXPECT_EQ((*store)->schema_version(), latest_schema_version());
  auto mode = (*store)->query({"PRAGMA journal_mode", {}});
  ASSERT_TRUE(mode.is_ok());
  EXPECT_EQ(as_text(mode->at(0).at(0)), "wal");
}

TEST(Store, ConcurrentWritersAreGroupCommitted) {
  TempDir dir;
  auto store = Store::open(dir.path() + "/boreas.db");
  ASSERT_TRUE(store.is_ok());
  constexpr int kThreads = 8;
  constexpr int kPerThread = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        EXPECT_TRUE((*store)->write_sync(insert_job(t * kPerThread + i + 1)).is_ok());
      }
    });
  }
  for (auto& th : threads) {
    th.join();
  }
  EXPECT_EQ(count_jobs(**store), kThreads * kPerThread);
  // 8 writers wait on each other's commits, so some transactions carry more than one mutation.
  EXPECT_LT((*store)->transactions_committed(), uint64_t{kThreads * kPerThread});
}

TEST(Store, FailingMutationDoesNotSpoilItsGroup) {
  TempDir dir;
  auto store = Store::open(dir.path() + "/boreas.db");
  ASSERT_TRUE(store.is_ok());
  auto a = (*store)->write(insert_job(1));
  auto dup = (*store)->write(insert_job(1));  // same primary key: must fail alone
  auto b = (*store)->write(insert_job(2));
  EXPECT_TRUE(a.get().is_ok());
  Status s = dup.get();
  EXPECT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("UNIQUE"), std::string::npos) << s.message();
  EXPECT_TRUE(b.get().is_ok());
  EXPECT_EQ(count_jobs(**store), 2);
  EXPECT_EQ((*store)->write_errors(), 1u);  // boreas_store_errors_total{op="write"}
  EXPECT_EQ((*store)->read_errors(), 0u);
  EXPECT_FALSE((*store)->query({"SELECT nothing FROM nowhere", {}}).is_ok());
  EXPECT_EQ((*store)->read_errors(), 1u);
}

TEST(Store, AcknowledgedWritesSurviveReopen) {
  TempDir dir;
  const std::string path = dir.path() + "/boreas.db";
  {
    auto store = Store::open(path);
    ASSERT_TRUE(store.is_ok());
    for (int64_t i = 1; i <= 20; ++i) {
      ASSERT_TRUE((*store)->write_sync(insert_job(i)).is_ok());
    }
  }
  auto again = Store::open(path);
  ASSERT_TRUE(again.is_ok());
  EXPECT_EQ(count_jobs(**again), 20);
}

TEST(Store, MigratesAnOlderSchemaKeepingRows) {
  TempDir dir;
  const std::string path = dir.path() + "/boreas.db";
  {
    auto old = Store::open(path, {.schema_version = 1});
    ASSERT_TRUE(old.is_ok());
    EXPECT_EQ((*old)->schema_version(), 1);
    ASSERT_TRUE((*old)->write_sync(insert_job(7)).is_ok());
    EXPECT_FALSE((*old)->query({"SELECT proc_start FROM jobs", {}}).is_ok());
  }
  auto store = Store::open(path);
  ASSERT_TRUE(store.is_ok());
  EXPECT_EQ((*store)->schema_version(), latest_schema_version());
  auto rows = (*store)->query({"SELECT id, proc_start, attempts FROM jobs", {}});
  ASSERT_TRUE(rows.is_ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(as_int(rows->at(0).at(0)), 7);
  EXPECT_EQ(as_int(rows->at(0).at(1)), 0);
  auto versions = (*store)->query({"SELECT version FROM schema_migrations ORDER BY version", {}});
  ASSERT_TRUE(versions.is_ok());
  EXPECT_EQ(versions->size(), schema_migrations().size());
}

TEST(Store, RefusesAStoreFromANewerBoreas) {
  TempDir dir;
  const std::string path = dir.path() + "/boreas.db";
  {
    auto store = Store::open(path);
    ASSERT_TRUE(store.is_ok());
    ASSERT_TRUE((*store)->write_sync({{{"INSERT INTO schema_migrations(version, description) "
                                        "VALUES (999, 'future')", {}}}}).is_ok());
  }
  auto again = Store::open(path);
  ASSERT_FALSE(again.is_ok());
  EXPECT_NE(again.status().message().find("upgrade boreas"), std::string::npos);
}

TEST(Store, UnwritableDirectoryIsAnIoError) {
  auto store = Store::open("/nonexistent-dir/boreas.db");
  ASSERT_FALSE(store.is_ok());
  EXPECT_EQ(store.status().code(), ErrorCode::kIo);
  EXPECT_NE(store.status().message().find("/nonexistent-dir/boreas.db"), std::string::npos);
}

}  // namespace
}  // namespace boreas::server
