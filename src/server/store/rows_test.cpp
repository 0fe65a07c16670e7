// The store's table helpers: token rows (names unique, revocation only of a live token), service
// rows and drained-node rows, against a real SQLite file.
#include <gtest/gtest.h>

#include <algorithm>

#include "server/store/node_rows.h"
#include "server/store/service_rows.h"
#include "server/store/token_rows.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

TokenRow token(const std::string& id, const std::string& name, int64_t created_us) {
  return {id, "salt-" + id, "hash-" + id, name, "user", "a,b", "", created_us, 0, 0};
}

class Rows : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::open(dir_.path() + "/boreas.db");
    ASSERT_TRUE(s.is_ok()) << s.status().message();
    store_ = std::move(*s);
  }
  TempDir dir_;
  std::unique_ptr<Store> store_;
};

TEST_F(Rows, TokenNamesStayUniqueAndRowsReadBack) {
  const uint64_t generation = store_->tokens_generation();
  ASSERT_TRUE(*insert_token_row(*store_, token("01", "alice", 5)));
  EXPECT_FALSE(*insert_token_row(*store_, token("02", "alice", 6)));  // name taken: nothing written
  ASSERT_TRUE(*insert_token_row(*store_, token("03", "bob", 4)));
  EXPECT_GT(store_->tokens_generation(), generation);

  auto alice = read_token_row(*store_, "01");
  ASSERT_TRUE(alice.is_ok() && alice->has_value());
  EXPECT_EQ((*alice)->name, "alice");
  EXPECT_EQ((*alice)->hash, "hash-01");
  EXPECT_EQ((*alice)->queues, "a,b");
  EXPECT_FALSE(read_token_row(*store_, "02")->has_value());

  auto all = read_token_rows(*store_);
  ASSERT_TRUE(all.is_ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ(all->at(0).name, "bob");  // oldest first
  EXPECT_EQ(all->at(1).name, "alice");
}

TEST_F(Rows, RevokesOnlyALiveToken) {
  ASSERT_TRUE(*insert_token_row(*store_, token("01", "carol", 1)));
  EXPECT_TRUE(*revoke_token_row(*store_, "carol", 50));
  EXPECT_FALSE(*revoke_token_row(*store_, "carol", 60));  // already revoked
  EXPECT_FALSE(*revoke_token_row(*store_, "nobody", 60));
  EXPECT_EQ((*read_token_row(*store_, "01"))->revoked_us, 50);
}

TEST_F(Rows, NamePrefixIsLiteral) {
  ASSERT_TRUE(*insert_token_row(*store_, token("01", "user-1", 1)));
  ASSERT_TRUE(*insert_token_row(*store_, token("02", "USER-7", 2)));
  ASSERT_TRUE(*insert_token_row(*store_, token("03", "userx2", 3)));
  EXPECT_EQ(*token_names_starting(*store_, "user-"), (std::vector<std::string>{"user-1"}));
  EXPECT_TRUE(token_names_starting(*store_, "user_")->empty());  // `_` is no wildcard
}

TEST_F(Rows, ServicesReadBackByName) {
  ASSERT_TRUE(store_->write_sync({{insert_service_row(ServiceRow{"zeta", "ann", R"({"a":1})", 7}),
                                   insert_service_row(ServiceRow{"alpha", "bo", R"({"b":2})", 8})}})
                  .is_ok());
  ASSERT_TRUE(store_->write_sync({{delete_service_row("zeta")}}).is_ok());
  auto rows = read_service_rows(*store_);
  ASSERT_TRUE(rows.is_ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(rows->at(0).name, "alpha");
  EXPECT_EQ(rows->at(0).owner, "bo");
  EXPECT_EQ(rows->at(0).spec_json, R"({"b":2})");
  EXPECT_EQ(rows->at(0).created_us, 8);
  EXPECT_FALSE(store_->write_sync({{insert_service_row(ServiceRow{"alpha", "x", "{}", 9})}}).is_ok());  // names unique
}

TEST_F(Rows, DrainsAreKeptWithWhoDrainedAndClearedOnResume) {
  ASSERT_TRUE(store_->write_sync({{node_drain_row("n1", true, "operator"), node_drain_row("n2", true, "executor"),
                                   node_drain_row("n3", true, "operator")}})
                  .is_ok());
  ASSERT_TRUE(store_->write_sync({{node_drain_row("n3", false, "operator")}}).is_ok());  // resumed
  auto drained = read_drained_nodes(*store_);
  ASSERT_TRUE(drained.is_ok());
  ASSERT_EQ(drained->size(), 2u);
  std::vector<std::string> seen;
  for (const DrainedNodeRow& row : *drained) {
    seen.push_back(row.name + ":" + row.drained_by);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"n1:operator", "n2:executor"}));
  auto n3 = store_->query({"SELECT drained, drained_by FROM node_state WHERE name = 'n3'", {}});
  ASSERT_TRUE(n3.is_ok());
  ASSERT_EQ(n3->size(), 1u);
  EXPECT_EQ(as_int(n3->at(0)[0]), 0);
  EXPECT_EQ(as_text(n3->at(0)[1]), "");
}

}  // namespace
}  // namespace boreas::server
