#pragma once
// How live jobs and audit entries are written to and read back from the store.

#include <string>
#include <vector>

#include "server/live_job.h"
#include "server/store.h"

namespace boreas::server {

SqlStatement insert_job_row(const LiveJob& job);
SqlStatement update_job_row(const LiveJob& job, Time now);
SqlStatement audit_row(Time at, const std::string& who, const std::string& action,
                       const std::string& target, const std::string& result, const std::string& peer = "");

// Every job in the store, by id; a row that does not parse is an error naming the job.
Result<std::vector<LiveJob>> load_jobs(Store& store);

std::string encode_allocation(int32_t node, const std::vector<uint32_t>& gpus);
bool decode_allocation(const std::string& text, int32_t& node, std::vector<uint32_t>& gpus);

}  // namespace boreas::server
