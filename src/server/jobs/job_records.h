#pragma once
// How live jobs and audit entries are written to and read back from the store.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "server/jobs/live_job.h"
#include "server/store/store.h"

namespace boreas::server {

SqlStatement insert_job_row(const LiveJob& job);
SqlStatement update_job_row(const LiveJob& job, Time now);
SqlStatement audit_row(Time at, const std::string& who, const std::string& action,
                       const std::string& target, const std::string& result, const std::string& peer = "");

SqlStatement delete_job_row(JobId id);

// Every job in the store, by id; a row that does not parse is an error naming the job.
Result<std::vector<LiveJob>> load_jobs(Store& store);
// The jobs a restart holds in memory: those not ended (pending, running, preempted), by id.
Result<std::vector<LiveJob>> load_active_jobs(Store& store);
// One job; nullopt when the store has none with this id (or this owner and Idempotency-Key).
Result<std::optional<LiveJob>> load_job(Store& store, JobId id);
Result<std::optional<LiveJob>> load_job_by_key(Store& store, const std::string& owner, const std::string& key);

// A page of jobs (GET /v1/jobs): ids above `after`, at most `limit`, by id. An empty filter
// field matches every value.
struct JobQuery {
  std::string state;
  std::string queue;
  std::string owner;
  uint32_t after = 0;
  uint32_t limit = 1000;
};
// The page's ended jobs (completed, failed, cancelled); a `state` not ended matches none.
Result<std::vector<LiveJob>> load_ended_jobs(Store& store, const JobQuery& q);
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

// The jobs.allocation column: "NODE:G,G" per node, nodes joined by ';' ("0:0,1;3:0,1"), empty
// when unplaced. A one-node allocation reads as it did before gangs could span nodes.
std::string encode_allocation(const std::vector<JobNode>& placement);
bool decode_allocation(const std::string& text, std::vector<JobNode>& placement);

}  // namespace boreas::server
