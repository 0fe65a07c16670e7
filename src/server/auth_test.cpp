#include "server/auth.h"

#include <gtest/gtest.h>

#include <map>

#include "server/test_util.h"
#include "server/tokens.h"

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
  const std::string secret = token->substr(token->rfind('_') + 1);
  auto rows = (*store)->query({"SELECT salt, hash FROM tokens", {}});
  ASSERT_TRUE(rows.is_ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(as_text(rows->at(0)[1]), salted_hash(as_text(rows->at(0)[0]), secret));
  EXPECT_EQ(as_text(rows->at(0)[1]).find(secret), std::string::npos);

  auto who = authenticate(**store, *token);
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
  std::string flipped = *token;
  flipped.back() = flipped.back() == '0' ? '1' : '0';
  EXPECT_FALSE(authenticate(**store, flipped).has_value());
  EXPECT_FALSE(authenticate(**store, "").has_value());
  EXPECT_FALSE(authenticate(**store, "brs_").has_value());
  EXPECT_FALSE(authenticate(**store, "Bearer " + *token).has_value());
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

}  // namespace
}  // namespace boreas::server
