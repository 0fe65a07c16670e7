#pragma once
// A store in a temporary directory, opened before each test (migrated to the latest schema).

#include <gtest/gtest.h>

#include <memory>

#include "server/store/store.h"
#include "server/testing/test_util.h"

namespace boreas::server {

class StoreFixture : public ::testing::Test {
 protected:
  void SetUp() override { open_store(); }
  void open_store() {
    auto s = Store::open(dir_.path() + "/boreas.db");
    ASSERT_TRUE(s.is_ok()) << s.status().message();
    store_ = std::move(*s);
  }

  TempDir dir_;
  std::unique_ptr<Store> store_;
};

}  // namespace boreas::server
