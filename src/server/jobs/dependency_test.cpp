#include "server/jobs/dependency.h"

#include <gtest/gtest.h>

#include <map>

namespace boreas::server {
namespace {

DependencyState state_with(const std::string& text, const std::map<uint32_t, JobState>& states) {
  auto deps = parse_dependency(text);
  EXPECT_TRUE(deps.is_ok()) << text << ": " << deps.status().message();
  return dependency_state(*deps, [&](JobId id) -> std::optional<JobState> {
    const auto it = states.find(id.value());
    return it == states.end() ? std::nullopt : std::optional<JobState>(it->second);
  });
}

TEST(Dependency, ParsesSbatchForms) {
  auto d = parse_dependency("afterok:12:13,afterany:14,afternotok:2");
  ASSERT_TRUE(d.is_ok()) << d.status().message();
  ASSERT_EQ(d->size(), 3u);
  EXPECT_EQ((*d)[0].kind, AfterKind::kOk);
  EXPECT_EQ((*d)[0].jobs, (std::vector<JobId>{JobId(12), JobId(13)}));
  EXPECT_EQ((*d)[1].kind, AfterKind::kAny);
  EXPECT_EQ((*d)[2].kind, AfterKind::kNotOk);
  EXPECT_TRUE(parse_dependency("")->empty());
}

TEST(Dependency, RefusesOtherForms) {
  for (const char* bad : {"afterok", "afterok:", "afterok:x", "afterok:0", "after:1", "singleton", "afterok:1,",
                          "afterok:1?afterany:2", "afterok::1", "AFTEROK:1"}) {
    auto d = parse_dependency(bad);
    ASSERT_FALSE(d.is_ok()) << bad;
    EXPECT_NE(d.status().message().find("afterok:ID"), std::string::npos) << d.status().message();
  }
}

TEST(Dependency, AfterOkWaitsThenIsMetOrNeverSatisfied) {
  EXPECT_EQ(state_with("afterok:1", {{1, JobState::kRunning}}), DependencyState::kWaiting);
  EXPECT_EQ(state_with("afterok:1", {{1, JobState::kPreempted}}), DependencyState::kWaiting);
  EXPECT_EQ(state_with("afterok:1", {{1, JobState::kCompleted}}), DependencyState::kMet);
  EXPECT_EQ(state_with("afterok:1", {{1, JobState::kFailed}}), DependencyState::kNeverSatisfied);
  EXPECT_EQ(state_with("afterok:1", {{1, JobState::kCancelled}}), DependencyState::kNeverSatisfied);
}

TEST(Dependency, AfterAnyAndAfterNotOk) {
  EXPECT_EQ(state_with("afterany:1", {{1, JobState::kFailed}}), DependencyState::kMet);
  EXPECT_EQ(state_with("afterany:1", {{1, JobState::kPending}}), DependencyState::kWaiting);
  EXPECT_EQ(state_with("afternotok:1", {{1, JobState::kFailed}}), DependencyState::kMet);
  EXPECT_EQ(state_with("afternotok:1", {{1, JobState::kCompleted}}), DependencyState::kNeverSatisfied);
}

TEST(Dependency, EveryItemMustHoldAndOneImpossibleItemDecides) {
  const std::map<uint32_t, JobState> s = {{1, JobState::kCompleted}, {2, JobState::kRunning}, {3, JobState::kFailed}};
  EXPECT_EQ(state_with("afterok:1:2", s), DependencyState::kWaiting);
  EXPECT_EQ(state_with("afterok:1,afterany:3", s), DependencyState::kMet);
  EXPECT_EQ(state_with("afterok:2,afterok:3", s), DependencyState::kNeverSatisfied);
  EXPECT_EQ(state_with("afterok:9", s), DependencyState::kNeverSatisfied);  // unknown job
}

}  // namespace
}  // namespace boreas::server
