#include "server/api/auth.h"

#include <gtest/gtest.h>

#include <map>

#include "server/api/tokens.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

// Expected decisions written out by hand. Columns: own queue & own job, own queue & someone
// else's job, other queue. A = allow, F = forbidden (403), U = unauthenticated (401).
struct Row {
  const char* role;
  Action action;
  const char* expected;
};

constexpr Row kMatrix[] = {
    {"admin", Action::kReadJob, "AAA"},       {"admin", Action::kSubmit, "AAA"},
    {"admin", Action::kCancel, "AAA"},        {"admin", Action::kCheckpoint, "AAA"},
    {"admin", Action::kReadCluster, "AAA"},   {"admin", Action::kDrainNode, "AAA"},
    {"queue-admin", Action::kReadJob, "AAF"}, {"queue-admin", Action::kSubmit, "AAF"},
    {"queue-admin", Action::kCancel, "AAF"},  {"queue-admin", Action::kCheckpoint, "AAF"},
    {"queue-admin", Action::kReadCluster, "AAA"}, {"queue-admin", Action::kDrainNode, "FFF"},
    {"user", Action::kReadJob, "AAF"},        {"user", Action::kSubmit, "AAF"},
    {"user", Action::kCancel, "AFF"},         {"user", Action::kCheckpoint, "AFF"},
    {"user", Action::kReadCluster, "AAA"},    {"user", Action::kDrainNode, "FFF"},
    {"viewer", Action::kReadJob, "AAF"},      {"viewer", Action::kSubmit, "FFF"},
    {"viewer", Action::kCancel, "FFF"},       {"viewer", Action::kCheckpoint, "FFF"},
    {"viewer", Action::kReadCluster, "AAA"},  {"viewer", Action::kDrainNode, "FFF"},
    {"none", Action::kReadJob, "UUU"},        {"none", Action::kSubmit, "UUU"},
    {"none", Action::kCancel, "UUU"},         {"none", Action::kCheckpoint, "UUU"},
    {"none", Action::kReadCluster, "UUU"},    {"none", Action::kDrainNode, "UUU"},
};

char letter(Decision d) {
  return d == Decision::kAllow ? 'A' : d == Decision::kForbidden ? 'F' : 'U';
}

TEST(Authorize, FullMatrixOfRolesScopesAndActions) {
  const Scope scopes[] = {{"team-a", "alice"}, {"team-a", "bob"}, {"team-b", "alice"}};
  for (const Row& row : kMatrix) {
    std::optional<Principal> who;
    if (std::string(row.role) != "none") {
      who = Principal{"alice", *parse_role(row.role), {"team-a"}};
    }
    std::string got;
    for (const Scope& s : scopes) {
      got += letter(authorize(who, row.action, s));
    }
    EXPECT_EQ(got, row.expected) << row.role << " " << to_string(row.action);
  }
}

TEST(Authorize, WildcardMembershipCoversEveryQueue) {
  const Principal p{"ops", Role::kQueueAdmin, {"*"}};
  EXPECT_EQ(authorize(p, Action::kCancel, {"anything", "someone"}), Decision::kAllow);
  EXPECT_EQ(authorize(p, Action::kDrainNode, {}), Decision::kForbidden);
}

TEST(Roles, ParseAndPrintRoundTrip) {
  for (const char* name : {"admin", "queue-admin", "user", "viewer"}) {
    auto r = parse_role(name);
    ASSERT_TRUE(r.has_value()) << name;
    EXPECT_EQ(to_string(*r), name);
  }
  EXPECT_FALSE(parse_role("root").has_value());
}

TEST(Tokens, StoredOnlyAsSaltedHashAndAuthenticate) {
  TempDir dir;
  auto store = Store::open(dir.path() + "/boreas.db");
  ASSERT_TRUE(store.is_ok());
  auto token = create_token(**store, {"alice", Role::kUser, {"team-a", "team-b"}}, 1);
  ASSERT_TRUE(token.is_ok()) << token.status().message();
  const std::string secret = token->token.substr(token->token.rfind('_') + 1);
  auto rows = (*store)->query({"SELECT salt, hash FROM tokens", {}});
  ASSERT_TRUE(rows.is_ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(as_text(rows->at(0)[1]), salted_hash(as_text(rows->at(0)[0]), secret));
  EXPECT_EQ(as_text(rows->at(0)[1]).find(secret), std::string::npos);

  auto who = authenticate(**store, token->token, 2);
  ASSERT_TRUE(who.has_value());
  EXPECT_EQ(who->name, "alice");
  EXPECT_EQ(who->role, Role::kUser);
  EXPECT_EQ(who->queues, (std::vector<std::string>{"team-a", "team-b"}));
}

TEST(Tokens, WrongOrMalformedTokensAreRejected) {
  TempDir dir;
  auto store = Store::open(dir.path() + "/boreas.db");
  ASSERT_TRUE(store.is_ok());
  auto token = create_token(**store, {"alice", Role::kAdmin, {}}, 1);
  ASSERT_TRUE(token.is_ok());
  std::string flipped = token->token;
  flipped.back() = flipped.back() == '0' ? '1' : '0';
  EXPECT_FALSE(authenticate(**store, flipped, 2).has_value());
  EXPECT_FALSE(authenticate(**store, "", 2).has_value());
  EXPECT_FALSE(authenticate(**store, "brs_", 2).has_value());
  EXPECT_FALSE(authenticate(**store, "Bearer " + token->token, 2).has_value());
}

TEST(Tokens, SameSecretHashesDifferentlyUnderDifferentSalts) {
  EXPECT_NE(salted_hash("aa", "secret"), salted_hash("bb", "secret"));
  // SHA-256("abc"), from FIPS 180-2 appendix B.1.
  EXPECT_EQ(salted_hash("a", "bc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Tokens, NonAdminTokenNeedsQueues) {
  TempDir dir;
  auto store = Store::open(dir.path() + "/boreas.db");
  ASSERT_TRUE(store.is_ok());
  auto token = create_token(**store, {"bob", Role::kUser, {}}, 1);
  ASSERT_FALSE(token.is_ok());
  EXPECT_NE(token.status().message().find("--queues"), std::string::npos);
}

class TokenStore : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::open(dir_.path() + "/boreas.db");
    ASSERT_TRUE(s.is_ok());
    store_ = std::move(*s);
  }
  TempDir dir_;
  std::unique_ptr<Store> store_;
};

TEST_F(TokenStore, NamesAreUniqueAndGeneratedOnesDoNotCollide) {
  ASSERT_TRUE(create_token(*store_, {"alice", Role::kUser, {"a"}}, 1).is_ok());
  auto again = create_token(*store_, {"alice", Role::kAdmin, {}}, 2);
  ASSERT_FALSE(again.is_ok());
  EXPECT_NE(again.status().message().find("`alice` already exists"), std::string::npos);
  auto first = create_token(*store_, {"", Role::kUser, {"a"}}, 3);
  auto second = create_token(*store_, {"", Role::kUser, {"a"}}, 4);
  ASSERT_TRUE(first.is_ok() && second.is_ok());
  EXPECT_EQ(first->name, "user-1");
  EXPECT_EQ(second->name, "user-2");
  EXPECT_EQ(authenticate(*store_, second->token, 5)->name, "user-2");
}

TEST_F(TokenStore, ExpiredAndRevokedTokensNoLongerAuthenticate) {
  auto t = create_token(*store_, {"bob", Role::kUser, {"a"}, "", 1000}, 1);
  ASSERT_TRUE(t.is_ok());
  EXPECT_TRUE(authenticate(*store_, t->token, 999).has_value());
  EXPECT_FALSE(authenticate(*store_, t->token, 1000).has_value());
  auto u = create_token(*store_, {"carol", Role::kUser, {"a"}}, 1);
  ASSERT_TRUE(u.is_ok());
  ASSERT_TRUE(revoke_token(*store_, "carol", 50).is_ok());
  EXPECT_FALSE(authenticate(*store_, u->token, 51).has_value());
  EXPECT_EQ(revoke_token(*store_, "carol", 52).code(), ErrorCode::kNotFound);  // no live token left
  EXPECT_FALSE(create_token(*store_, {"carol", Role::kUser, {"a"}}, 53).is_ok());  // name stays taken
}

TEST_F(TokenStore, ListShowsEveryTokenWithItsAccountAndDates) {
  ASSERT_TRUE(create_token(*store_, {"root", Role::kAdmin, {}, "root", 0}, 10).is_ok());
  ASSERT_TRUE(create_token(*store_, {"vera", Role::kViewer, {"a", "b"}, "", 99}, 20).is_ok());
  ASSERT_TRUE(revoke_token(*store_, "vera", 30).is_ok());
  auto list = list_tokens(*store_);
  ASSERT_TRUE(list.is_ok());
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ(list->at(0).name, "root");
  EXPECT_EQ(list->at(0).unix_user, "root");
  EXPECT_EQ(list->at(0).created_us, 10);
  EXPECT_EQ(list->at(1).queues, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(list->at(1).expires_us, 99);
  EXPECT_EQ(list->at(1).revoked_us, 30);
}

TEST_F(TokenStore, AnAccountThatDoesNotExistIsRefused) {
  auto t = create_token(*store_, {"dave", Role::kUser, {"a"}, "no-such-user-boreas", 0}, 1);
  ASSERT_FALSE(t.is_ok());
  EXPECT_NE(t.status().message().find("no-such-user-boreas"), std::string::npos);
  EXPECT_NE(t.status().message().find("--unix-user"), std::string::npos);
}

TEST(EnvVisibility, OwnerAndAdminsOnly) {
  const Principal owner{"alice", Role::kUser, {"a"}};
  const Principal qa{"qa", Role::kQueueAdmin, {"a"}};
  const Principal viewer{"vera", Role::kViewer, {"a"}};
  const Principal admin{"root", Role::kAdmin, {}};
  EXPECT_TRUE(env_visible_to(owner, "alice"));
  EXPECT_TRUE(env_visible_to(admin, "alice"));
  EXPECT_FALSE(env_visible_to(qa, "alice"));
  EXPECT_FALSE(env_visible_to(viewer, "alice"));
  EXPECT_FALSE(env_visible_to(std::nullopt, "alice"));
}

}  // namespace
}  // namespace boreas::server
