#include "server/api/token_cache.h"

#include <gtest/gtest.h>

#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

class TokenCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::open(path());
    ASSERT_TRUE(s.is_ok()) << s.status().message();
    store_ = std::move(*s);
    cache_ = std::make_unique<TokenCache>(*store_);
  }
  std::string path() const { return dir_.path() + "/boreas.db"; }
  std::string create(const std::string& name, int64_t expires_us = 0) {
    auto t = create_token(*store_, {name, Role::kUser, {"a"}, "", expires_us}, 1);
    EXPECT_TRUE(t.is_ok()) << t.status().message();
    return t.is_ok() ? t->token : "";
  }

  TempDir dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<TokenCache> cache_;
};

TEST_F(TokenCacheTest, KeepsATokenAndStillChecksTheSecret) {
  const std::string token = create("alice");
  ASSERT_EQ(cache_->authenticate(token, 2)->name, "alice");
  EXPECT_EQ(cache_->size(), 1u);
  std::string wrong = token;
  wrong.back() = wrong.back() == '0' ? '1' : '0';  // same id, another secret: the cached row refuses it
  EXPECT_FALSE(cache_->authenticate(wrong, 3).has_value());
  EXPECT_FALSE(cache_->authenticate("brs_nosuchid_secret", 3).has_value());
  EXPECT_EQ(cache_->size(), 1u);  // unknown ids are not kept
}

// `boreas token revoke` runs in another process with its own store: it bumps the shared
// generation after its commit, and the very next request is refused.
TEST_F(TokenCacheTest, RevocationByAnotherStoreFailsTheNextRequest) {
  const std::string token = create("bob");
  ASSERT_TRUE(cache_->authenticate(token, 2).has_value());
  {
    auto cli = Store::open(path());
    ASSERT_TRUE(cli.is_ok());
    ASSERT_TRUE(revoke_token(**cli, "bob", 3).is_ok());
  }
  EXPECT_FALSE(cache_->authenticate(token, 4).has_value());
}

TEST_F(TokenCacheTest, ExpiryIsCheckedOnEveryHit) {
  const std::string token = create("carol", 1000);
  ASSERT_TRUE(cache_->authenticate(token, 999).has_value());
  EXPECT_EQ(cache_->size(), 1u);
  EXPECT_FALSE(cache_->authenticate(token, 1000).has_value());
}

// A row changed behind boreas's back (an sqlite3 shell) is not seen until SIGHUP drops the cache.
TEST_F(TokenCacheTest, ClearReadsTheStoreAgain) {
  const std::string token = create("dave");
  ASSERT_TRUE(cache_->authenticate(token, 2).has_value());
  ASSERT_TRUE(store_->write_sync({{{"UPDATE tokens SET revoked_us = 5 WHERE name = 'dave'", {}}}}).is_ok());
  EXPECT_TRUE(cache_->authenticate(token, 6).has_value());  // cached: the store was not read
  cache_->clear();
  EXPECT_FALSE(cache_->authenticate(token, 7).has_value());
}

}  // namespace
}  // namespace boreas::server
