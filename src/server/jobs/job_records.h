#pragma once
// What a row of the store's `jobs` table means: a live job, its spec as JSON, its allocation.

#include <optional>
#include <string>
#include <vector>

#include "server/jobs/live_job.h"
// A submit or a cancel commits its job row and its audit row together.
#include "server/store/audit_rows.h"
#include "server/store/job_rows.h"
#include "server/store/store.h"

namespace boreas::server {

// A live job's row in the store (server/store/job_rows.h) and back: the request as spec JSON,
// the placement as the allocation text.
SqlStatement insert_job_row(const LiveJob& job);
SqlStatement update_job_row(const LiveJob& job, Time now);

// Every job in the store, by id; a row that does not parse is an error naming the job.
Result<std::vector<LiveJob>> load_jobs(Store& store);
// The jobs a restart holds in memory: those not ended (pending, running, preempted), by id.
Result<std::vector<LiveJob>> load_active_jobs(Store& store);
// One job; nullopt when the store has none with this id (or this owner and Idempotency-Key).
Result<std::optional<LiveJob>> load_job(Store& store, JobId id);
Result<std::optional<LiveJob>> load_job_by_key(Store& store, const std::string& owner, const std::string& key);
// The page's ended jobs (completed, failed, cancelled); a `state` not ended matches none.
Result<std::vector<LiveJob>> load_ended_jobs(Store& store, const JobQuery& q);

// The jobs.allocation column: "NODE:G,G" per node, nodes joined by ';' ("0:0,1;3:0,1"), empty
// when unplaced. A one-node allocation reads as it did before gangs could span nodes.
std::string encode_allocation(const std::vector<JobNode>& placement);
bool decode_allocation(const std::string& text, std::vector<JobNode>& placement);

}  // namespace boreas::server
