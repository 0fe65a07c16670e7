#include "server/jobs/job_records.h"

#include <sstream>

#include "core/results.h"
#include "server/jobs/job_json.h"

namespace boreas::server {
namespace {

Result<LiveJob> job_from_row(JobRow&& r) {
  LiveJob j;
  j.id = JobId(r.id);
  const std::string where = "store: job " + std::to_string(r.id) + ": ";
  auto req = parse_submit(r.spec, SpecOrigin::kStore);
  if (!req.is_ok()) {
    return internal_error(where + "unreadable spec (" + req.status().message() + "); the store may be damaged");
  }
  j.request = std::move(*req);
  if (!decode_allocation(r.allocation, j.placement)) {
    return internal_error(where + "unreadable allocation `" + r.allocation + "`");
  }
  j.owner = std::move(r.owner);
  j.state = r.state;
  j.reason = std::move(r.reason);
  j.process = {r.pid, r.proc_start};
  j.submit = Time::from_micros(r.submit_us);
  j.start = Time::from_micros(r.start_us);
  j.end = Time::from_micros(r.end_us);
  j.attempts = r.attempts;
  j.exit_code = r.exit_code;
  j.restarts = r.restarts;
  j.preemptions = r.preemptions;
  j.ran = Duration::micros(r.ran_us);
  j.idempotency_key = std::move(r.idempotency_key);
  j.share_milli = r.share_milli;
  j.share_bytes = r.share_bytes;
  return j;
}

// The columns an update writes (update_job_statement): not the spec, which is serialized only
// once, at the submit.
JobRow changed_columns(const LiveJob& j) {
  JobRow r;
  r.id = j.id.value();
  r.state = j.state;
  r.reason = j.reason;
  r.allocation = encode_allocation(j.placement);
  r.pid = j.process.pid;
  r.proc_start = j.process.start_ticks;
  r.start_us = j.start.us();
  r.end_us = j.end.us();
  r.attempts = j.attempts;
  r.exit_code = j.exit_code;
  r.restarts = j.restarts;
  r.preemptions = j.preemptions;
  r.ran_us = j.ran.us();
  r.share_milli = j.share_milli;
  r.share_bytes = j.share_bytes;
  return r;
}

JobRow row_of(const LiveJob& j) {
  JobRow r = changed_columns(j);
  r.spec = submit_to_json(j.request).dump();
  r.queue = j.request.queue;
  r.owner = j.owner;
  r.submit_us = j.submit.us();
  r.idempotency_key = j.idempotency_key;
  return r;
}

}  // namespace

std::string encode_allocation(const std::vector<JobNode>& placement) {
  std::string out;
  for (const JobNode& p : placement) {
    out += (out.empty() ? "" : ";") + std::to_string(p.node) + ":";
    for (size_t i = 0; i < p.gpus.size(); ++i) {
      out += (i == 0 ? "" : ",") + std::to_string(p.gpus[i]);
    }
  }
  return out;
}

namespace {

// Digits only: std::stoul would read "1;3" as 1 and drop the rest.
std::optional<uint32_t> whole_number(const std::string& s) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<uint32_t>(std::stoul(s));
}

std::optional<JobNode> decode_node(const std::string& text) {
  const auto colon = text.find(':');
  const auto node = whole_number(text.substr(0, colon));
  if (colon == std::string::npos || !node) {
    return std::nullopt;
  }
  JobNode out{static_cast<int32_t>(*node), {}};
  std::istringstream in(text.substr(colon + 1));
  for (std::string part; std::getline(in, part, ',');) {
    const auto gpu = whole_number(part);
    if (!gpu) {
      return std::nullopt;
    }
    out.gpus.push_back(*gpu);
  }
  return out;
}

}  // namespace

bool decode_allocation(const std::string& text, std::vector<JobNode>& placement) {
  placement.clear();
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ';');) {
    auto node = decode_node(part);
    if (!node) {
      placement.clear();
      return false;
    }
    placement.push_back(std::move(*node));
  }
  return true;
}

SqlStatement insert_job_row(const LiveJob& job) { return insert_job_statement(row_of(job)); }

SqlStatement update_job_row(const LiveJob& job, Time now) {
  return update_job_statement(changed_columns(job), now.us());
}

namespace {

Result<std::vector<LiveJob>> jobs_of(Result<std::vector<JobRow>> rows) {
  if (!rows.is_ok()) {
    return rows.status();
  }
  return collect_results<LiveJob>(*rows, [](JobRow& r) { return job_from_row(std::move(r)); });
}

Result<std::optional<LiveJob>> job_of(Result<std::optional<JobRow>> row) {
  if (!row.is_ok()) {
    return row.status();
  }
  if (!row->has_value()) {
    return std::optional<LiveJob>();
  }
  auto j = job_from_row(std::move(**row));
  if (!j.is_ok()) {
    return j.status();
  }
  return std::optional<LiveJob>(std::move(*j));
}

}  // namespace

Result<std::vector<LiveJob>> load_jobs(Store& store) { return jobs_of(read_job_rows(store)); }

Result<std::vector<LiveJob>> load_active_jobs(Store& store) { return jobs_of(read_active_job_rows(store)); }

Result<std::optional<LiveJob>> load_job(Store& store, JobId id) { return job_of(read_job_row(store, id)); }

Result<std::optional<LiveJob>> load_job_by_key(Store& store, const std::string& owner, const std::string& key) {
  return job_of(read_job_row_by_key(store, owner, key));
}

Result<std::vector<LiveJob>> load_ended_jobs(Store& store, const JobQuery& q) {
  return jobs_of(read_ended_job_rows(store, q));
}

}  // namespace boreas::server
