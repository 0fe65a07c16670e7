#pragma once
// The `jobs` table (migration 1 and the columns later ones added): one row per job until retention
// deletes it, as stored. What the spec and allocation texts mean, and the live job they describe,
// is server/jobs/job_records.h's business.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ids.h"
#include "core/job.h"
#include "core/status.h"
#include "core/time.h"
#include "server/store/store.h"

namespace boreas::server {

struct JobRow {
  uint32_t id = 0;
  std::string spec;   // the submitted request, as JSON
  std::string queue;  // written on insert only
  std::string owner;
  JobState state = JobState::kPending;
  std::string reason;
  std::string allocation;  // "NODE:G,G" per node, ';'-joined; empty when unplaced
  int32_t pid = 0;
  uint64_t proc_start = 0;  // the process's start time in /proc ticks: a pid reused is told apart
  int64_t submit_us = 0;
  int64_t start_us = 0;
  int64_t end_us = 0;
  uint32_t attempts = 0;
  int32_t exit_code = -1;  // -1 when none (stored as NULL until an update writes one)
  uint32_t restarts = 0;
  uint32_t preemptions = 0;
  int64_t ran_us = 0;
  std::string idempotency_key;  // "" = none (stored as NULL); unique per owner when set
  uint32_t share_milli = 0;
  uint64_t share_bytes = 0;
};

// A new row: id, spec, queue, owner, state, submit time and idempotency key (the rest default).
SqlStatement insert_job_statement(const JobRow& row);
// Every column that changes after the submit, and updated_us = NOW_US, for row.id; the spec,
// queue, owner, submit time and key stay as inserted (update reads none of them).
SqlStatement update_job_statement(const JobRow& row, int64_t now_us);
SqlStatement delete_job_row(JobId id);

// Every job row, by id. A row whose state is no state name is an error naming the job.
Result<std::vector<JobRow>> read_job_rows(Store& store);
// The rows not ended (pending, running, preempted), by id: what a restart holds in memory.
Result<std::vector<JobRow>> read_active_job_rows(Store& store);
// One row; nullopt when the store has none with this id (or this owner and Idempotency-Key).
Result<std::optional<JobRow>> read_job_row(Store& store, JobId id);
Result<std::optional<JobRow>> read_job_row_by_key(Store& store, const std::string& owner, const std::string& key);

// A page of jobs (GET /v1/jobs): ids above `after`, at most `limit`, by id. An empty filter
// field matches every value.
struct JobQuery {
  std::string state;
  std::string queue;
  std::string owner;
  uint32_t after = 0;
  uint32_t limit = 1000;
};
// The page's ended rows (completed, failed, cancelled); a `state` not ended matches none.
Result<std::vector<JobRow>> read_ended_job_rows(Store& store, const JobQuery& q);

// The largest job id ever stored, 0 when none: the next submit takes the one after it.
Result<uint32_t> max_job_id(Store& store);
// Ended jobs by (state, queue): how many the store holds (the boreas_jobs gauge), from the counts
// migration 9's triggers keep.
using EndedCounts = std::map<std::pair<std::string, std::string>, int64_t>;
Result<EndedCounts> count_ended_jobs(Store& store);
// Retention: at most `limit` jobs that ended before `cutoff`, oldest end first (id, state, queue).
struct EndedJob {
  JobId id;
  std::string state;
  std::string queue;
};
Result<std::vector<EndedJob>> ended_before(Store& store, Time cutoff, uint32_t limit);

}  // namespace boreas::server
