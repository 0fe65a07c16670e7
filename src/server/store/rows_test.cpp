// The store's table helpers: token rows (names unique, revocation only of a live token), service
// rows, drained-node rows, job rows (round trip, pages, a damaged row) and audit rows, against a
// real SQLite file.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/job_states.h"
#include "server/store/audit_rows.h"
#include "server/store/job_rows.h"
#include "server/store/node_rows.h"
#include "server/store/service_rows.h"
#include "server/store/token_rows.h"
#include "server/testing/store_fixture.h"

namespace boreas::server {
namespace {

TokenRow token(const std::string& id, const std::string& name, int64_t created_us) {
  return {id, "salt-" + id, "hash-" + id, name, "user", "a,b", "", created_us, 0, 0};
}

JobRow job(uint32_t id, JobState state, const std::string& queue, const std::string& owner) {
  JobRow r;
  r.id = id;
  r.spec = R"({"command":["true"]})";
  r.queue = queue;
  r.owner = owner;
  r.state = state;
  r.submit_us = 100 * id;
  return r;
}

std::vector<uint32_t> ids_of(const std::vector<JobRow>& rows) {
  std::vector<uint32_t> ids;
  for (const JobRow& r : rows) {
    ids.push_back(r.id);
  }
  return ids;
}

using Rows = StoreFixture;

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

TEST_F(Rows, JobRowsReadBackEveryColumn) {
  JobRow j = job(7, JobState::kPending, "a", "ann");
  j.idempotency_key = "k-1";
  ASSERT_TRUE(store_->write_sync({{insert_job_statement(j)}}).is_ok());
  auto fresh = read_job_row(*store_, JobId(7));
  ASSERT_TRUE(fresh.is_ok() && fresh->has_value()) << fresh.status().message();
  EXPECT_EQ((*fresh)->exit_code, -1);  // NULL until an update writes one
  EXPECT_EQ((*fresh)->allocation, "");
  EXPECT_EQ((*fresh)->submit_us, 700);

  j.state = JobState::kRunning;
  j.reason = "running";
  j.allocation = "0:0,1;2:4";
  j.pid = 4242;
  j.proc_start = 99;
  j.start_us = 800;
  j.end_us = 0;
  j.attempts = 2;
  j.exit_code = 0;
  j.restarts = 1;
  j.preemptions = 3;
  j.ran_us = 55;
  j.share_milli = 250;
  j.share_bytes = uint64_t{20} << 30;
  ASSERT_TRUE(store_->write_sync({{update_job_statement(j, 900)}}).is_ok());
  auto back = read_job_row(*store_, JobId(7));
  ASSERT_TRUE(back.is_ok() && back->has_value());
  const JobRow& r = **back;
  EXPECT_EQ(r.spec, j.spec);
  EXPECT_EQ(r.queue, "a");
  EXPECT_EQ(r.owner, "ann");
  EXPECT_EQ(r.state, JobState::kRunning);
  EXPECT_EQ(r.reason, "running");
  EXPECT_EQ(r.allocation, "0:0,1;2:4");
  EXPECT_EQ(r.pid, 4242);
  EXPECT_EQ(r.proc_start, 99u);
  EXPECT_EQ(r.start_us, 800);
  EXPECT_EQ(r.attempts, 2u);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.restarts, 1u);
  EXPECT_EQ(r.preemptions, 3u);
  EXPECT_EQ(r.ran_us, 55);
  EXPECT_EQ(r.share_milli, 250u);
  EXPECT_EQ(r.share_bytes, uint64_t{20} << 30);
  auto by_key = read_job_row_by_key(*store_, "ann", "k-1");
  ASSERT_TRUE(by_key.is_ok() && by_key->has_value());
  EXPECT_EQ((*by_key)->id, 7u);
  EXPECT_FALSE(read_job_row_by_key(*store_, "bo", "k-1")->has_value());  // keys are per owner
  EXPECT_FALSE(read_job_row(*store_, JobId(8))->has_value());
}

TEST_F(Rows, EndedJobsPageByIdAndFilter) {
  // Ids 1..6: completed, running, failed, cancelled, completed, completed; queue b for 5 only.
  const JobState states[] = {JobState::kCompleted, JobState::kRunning,   JobState::kFailed,
                             JobState::kCancelled, JobState::kCompleted, JobState::kCompleted};
  Mutation rows;
  for (uint32_t id = 1; id <= 6; ++id) {
    JobRow j = job(id, states[id - 1], id == 5 ? "b" : "a", id % 2 == 0 ? "bo" : "ann");
    j.end_us = 1000 - 100 * id;  // the later the id, the earlier it ended
    rows.statements.push_back(insert_job_statement(j));
    rows.statements.push_back(update_job_statement(j, 1));
  }
  ASSERT_TRUE(store_->write_sync(std::move(rows)).is_ok());

  EXPECT_EQ(ids_of(*read_ended_job_rows(*store_, JobQuery{"", "", "", 0, 2})), (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(ids_of(*read_ended_job_rows(*store_, JobQuery{"", "", "", 3, 2})), (std::vector<uint32_t>{4, 5}));
  EXPECT_EQ(ids_of(*read_ended_job_rows(*store_, JobQuery{"", "", "", 5, 2})), (std::vector<uint32_t>{6}));
  EXPECT_EQ(ids_of(*read_ended_job_rows(*store_, JobQuery{"completed", "", "", 0, 10})),
            (std::vector<uint32_t>{1, 5, 6}));
  EXPECT_EQ(ids_of(*read_ended_job_rows(*store_, JobQuery{"", "b", "", 0, 10})), (std::vector<uint32_t>{5}));
  EXPECT_EQ(ids_of(*read_ended_job_rows(*store_, JobQuery{"", "", "bo", 0, 10})), (std::vector<uint32_t>{4, 6}));
  EXPECT_TRUE(read_ended_job_rows(*store_, JobQuery{"running", "", "", 0, 10})->empty());  // not ended
  EXPECT_EQ(ids_of(*read_active_job_rows(*store_)), (std::vector<uint32_t>{2}));
  EXPECT_EQ(read_job_rows(*store_)->size(), 6u);
  EXPECT_EQ(*max_job_id(*store_), 6u);

  auto counts = count_ended_jobs(*store_);
  ASSERT_TRUE(counts.is_ok());
  EXPECT_EQ(*counts, (EndedCounts{{{"cancelled", "a"}, 1}, {{"completed", "a"}, 2}, {{"completed", "b"}, 1},
                                  {{"failed", "a"}, 1}}));
  // Ended before 650: ids 4, 5 and 6; the two that ended first, oldest first.
  auto old = ended_before(*store_, Time::from_micros(650), 2);
  ASSERT_TRUE(old.is_ok());
  ASSERT_EQ(old->size(), 2u);
  EXPECT_EQ(old->at(0).id, JobId(6));  // ended at 400
  EXPECT_EQ(old->at(1).id, JobId(5));  // ended at 500
  EXPECT_EQ(old->at(1).queue, "b");
  ASSERT_TRUE(store_->write_sync({{delete_job_row(JobId(6))}}).is_ok());
  EXPECT_EQ(*max_job_id(*store_), 5u);
  EXPECT_EQ(count_ended_jobs(*store_)->at({"completed", "a"}), 1);
}

// The store spells the ended states in its SQL (as its index does): they must be is_terminal's.
TEST_F(Rows, EveryStateIsEndedInTheStoreExactlyWhenTerminal) {
  Mutation rows;
  uint32_t id = 0;
  for (const JobStateName& s : kJobStateNames) {
    rows.statements.push_back(insert_job_statement(job(++id, s.state, "a", "ann")));
  }
  ASSERT_TRUE(store_->write_sync(std::move(rows)).is_ok());
  auto ended = read_ended_job_rows(*store_, JobQuery{});
  auto active = read_active_job_rows(*store_);
  ASSERT_TRUE(ended.is_ok() && active.is_ok());
  std::vector<uint32_t> terminal, not_terminal;
  id = 0;
  for (const JobStateName& s : kJobStateNames) {
    (is_terminal(s.state) ? terminal : not_terminal).push_back(++id);
  }
  EXPECT_EQ(ids_of(*ended), terminal);
  EXPECT_EQ(ids_of(*active), not_terminal);
  EXPECT_EQ(count_ended_jobs(*store_)->size(), terminal.size());
}

TEST_F(Rows, AJobRowWithAnUnknownStateIsReadLoud) {
  ASSERT_TRUE(store_->write_sync({{insert_job_statement(job(1, JobState::kPending, "a", "ann")),
                                   insert_job_statement(job(2, JobState::kPending, "a", "ann"))}})
                  .is_ok());
  ASSERT_TRUE(store_->write_sync({{{"UPDATE jobs SET state = 'runing' WHERE id = 2", {}}}}).is_ok());
  for (const Status& s : {read_job_rows(*store_).status(), read_active_job_rows(*store_).status(),
                          read_job_row(*store_, JobId(2)).status()}) {
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.message(), "store: job 2: unknown state `runing`; the store may be damaged");
  }
  EXPECT_TRUE(read_job_row(*store_, JobId(1)).is_ok());
}

TEST_F(Rows, AuditRowsReadBackInTheOrderWritten) {
  ASSERT_TRUE(store_->write_sync({{audit_row(Time::from_micros(5), "ann", "submit", "job/1", "ok", "10.0.0.1:5"),
                                   audit_row(Time::from_micros(3), "-", "unauthenticated", "/v1/jobs", "401"),
                                   audit_row(Time::from_micros(9), "bo", "cancel", "job/1", "403", "::1")}})
                  .is_ok());
  auto first = read_audit_rows(*store_, 0, 2);
  ASSERT_TRUE(first.is_ok()) << first.status().message();
  ASSERT_EQ(first->size(), 2u);
  EXPECT_EQ(first->at(0).who, "ann");
  EXPECT_EQ(first->at(0).at.us(), 5);
  EXPECT_EQ(first->at(0).action, "submit");
  EXPECT_EQ(first->at(0).target, "job/1");
  EXPECT_EQ(first->at(0).result, "ok");
  EXPECT_EQ(first->at(0).peer, "10.0.0.1:5");
  EXPECT_EQ(first->at(1).peer, "");  // written in order, not by time
  auto rest = read_audit_rows(*store_, first->at(1).seq, 2);
  ASSERT_TRUE(rest.is_ok());
  ASSERT_EQ(rest->size(), 1u);
  EXPECT_EQ(rest->at(0).who, "bo");
  EXPECT_EQ(rest->at(0).result, "403");
  EXPECT_GT(rest->at(0).seq, first->at(1).seq);
}

}  // namespace
}  // namespace boreas::server
