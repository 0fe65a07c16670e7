#include "server/jobs/job_records.h"

#include <sstream>

#include "server/jobs/job_json.h"

namespace boreas::server {
namespace {

std::optional<JobState> parse_state(const std::string& s) {
  for (JobState st : {JobState::kPending, JobState::kRunning, JobState::kPreempted,
                      JobState::kCompleted, JobState::kFailed, JobState::kCancelled}) {
    if (to_string(st) == s) {
      return st;
    }
  }
  return std::nullopt;
}

constexpr const char* kColumns =
    "SELECT id, spec, owner, state, allocation, pid, proc_start, submit_us, start_us, end_us, "
    "attempts, COALESCE(exit_code, -1), reason, restarts, "
    "preemptions, ran_us, COALESCE(idempotency_key, ''), share_milli, share_bytes FROM jobs ";
constexpr const char* kEnded = "('completed', 'failed', 'cancelled')";

Result<LiveJob> job_from_row(const SqlRow& r) {
  LiveJob j;
  j.id = JobId(static_cast<uint32_t>(as_int(r[0])));
  const std::string where = "store: job " + std::to_string(j.id.value()) + ": ";
  auto req = parse_submit(as_text(r[1]), SpecOrigin::kStore);
  auto state = parse_state(as_text(r[3]));
  if (!req.is_ok() || !state) {
    return internal_error(where + "unreadable spec or state; the store may be damaged");
  }
  j.request = std::move(*req);
  j.owner = as_text(r[2]);
  j.state = *state;
  if (!decode_allocation(as_text(r[4]), j.placement)) {
    return internal_error(where + "unreadable allocation `" + as_text(r[4]) + "`");
  }
  j.process = {static_cast<int32_t>(as_int(r[5])), static_cast<uint64_t>(as_int(r[6]))};
  j.submit = Time::from_micros(as_int(r[7]));
  j.start = Time::from_micros(as_int(r[8]));
  j.end = Time::from_micros(as_int(r[9]));
  j.attempts = static_cast<uint32_t>(as_int(r[10]));
  j.exit_code = static_cast<int32_t>(as_int(r[11]));
  j.reason = as_text(r[12]);
  j.restarts = static_cast<uint32_t>(as_int(r[13]));
  j.preemptions = static_cast<uint32_t>(as_int(r[14]));
  j.ran = Duration::micros(as_int(r[15]));
  j.idempotency_key = as_text(r[16]);
  j.share_milli = static_cast<uint32_t>(as_int(r[17]));
  j.share_bytes = static_cast<uint64_t>(as_int(r[18]));
  return j;
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

SqlStatement insert_job_row(const LiveJob& job) {
  const SqlValue key = job.idempotency_key.empty() ? SqlValue{} : SqlValue{job.idempotency_key};
  return {"INSERT INTO jobs(id, spec, queue, owner, state, submit_us, updated_us, idempotency_key) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)",
          {int64_t{job.id.value()}, submit_to_json(job.request).dump(), job.request.queue,
           job.owner, std::string(to_string(job.state)), job.submit.us(), key}};
}

SqlStatement update_job_row(const LiveJob& job, Time now) {
  return {"UPDATE jobs SET state = ?2, reason = ?3, allocation = ?4, pid = ?5, proc_start = ?6, "
          "start_us = ?7, end_us = ?8, attempts = ?9, exit_code = ?10, updated_us = ?11, restarts = ?12, "
          "preemptions = ?13, ran_us = ?14, share_milli = ?15, share_bytes = ?16 WHERE id = ?1",
          {int64_t{job.id.value()}, std::string(to_string(job.state)), job.reason,
           encode_allocation(job.placement), int64_t{job.process.pid},
           static_cast<int64_t>(job.process.start_ticks), job.start.us(), job.end.us(),
           int64_t{job.attempts}, int64_t{job.exit_code}, now.us(), int64_t{job.restarts},
           int64_t{job.preemptions}, job.ran.us(), int64_t{job.share_milli},
           static_cast<int64_t>(job.share_bytes)}};
}

SqlStatement audit_row(Time at, const std::string& who, const std::string& action,
                       const std::string& target, const std::string& result, const std::string& peer) {
  return {"INSERT INTO audit(at_us, who, action, target, result, peer) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
          {at.us(), who, action, target, result, peer}};
}

namespace {

Result<std::vector<LiveJob>> load_where(Store& store, const std::string& where, std::vector<SqlValue> params) {
  auto rows = store.query({kColumns + where, std::move(params)});
  if (!rows.is_ok()) {
    return rows.status();
  }
  std::vector<LiveJob> jobs;
  jobs.reserve(rows->size());
  for (const SqlRow& r : *rows) {
    auto j = job_from_row(r);
    if (!j.is_ok()) {
      return j.status();
    }
    jobs.push_back(std::move(*j));
  }
  return jobs;
}

Result<std::optional<LiveJob>> first_of(Result<std::vector<LiveJob>> jobs) {
  if (!jobs.is_ok()) {
    return jobs.status();
  }
  return jobs->empty() ? std::optional<LiveJob>() : std::optional<LiveJob>(std::move(jobs->front()));
}

}  // namespace

Result<std::vector<LiveJob>> load_jobs(Store& store) { return load_where(store, "ORDER BY id", {}); }

Result<std::vector<LiveJob>> load_active_jobs(Store& store) {
  return load_where(store, std::string("WHERE state NOT IN ") + kEnded + " ORDER BY id", {});
}

Result<std::optional<LiveJob>> load_job(Store& store, JobId id) {
  return first_of(load_where(store, "WHERE id = ?1", {int64_t{id.value()}}));
}

Result<std::optional<LiveJob>> load_job_by_key(Store& store, const std::string& owner, const std::string& key) {
  return first_of(load_where(store, "WHERE owner = ?1 AND idempotency_key = ?2", {owner, key}));
}

Result<std::vector<LiveJob>> load_ended_jobs(Store& store, const JobQuery& q) {
  std::string where = std::string("WHERE state IN ") + kEnded + " AND id > ?1";
  std::vector<SqlValue> params = {int64_t{q.after}};
  const auto add = [&](const char* column, const std::string& value) {
    if (!value.empty()) {
      params.emplace_back(value);
      where += std::string(" AND ") + column + " = ?" + std::to_string(params.size());
    }
  };
  add("state", q.state);
  add("queue", q.queue);
  add("owner", q.owner);
  params.emplace_back(int64_t{q.limit});
  where += " ORDER BY id LIMIT ?" + std::to_string(params.size());
  return load_where(store, where, std::move(params));
}

Result<uint32_t> max_job_id(Store& store) {
  auto rows = store.query({"SELECT COALESCE(MAX(id), 0) FROM jobs", {}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  return static_cast<uint32_t>(as_int(rows->at(0).at(0)));
}

Result<EndedCounts> count_ended_jobs(Store& store) {
  auto rows = store.query({std::string("SELECT state, queue, n FROM job_counts WHERE n > 0 AND state IN ") + kEnded, {}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  EndedCounts counts;
  for (const SqlRow& r : *rows) {
    counts[{as_text(r[0]), as_text(r[1])}] = as_int(r[2]);
  }
  return counts;
}

Result<std::vector<EndedJob>> ended_before(Store& store, Time cutoff, uint32_t limit) {
  auto rows = store.query({std::string("SELECT id, state, queue FROM jobs WHERE state IN ") + kEnded +
                               " AND end_us < ?1 ORDER BY end_us LIMIT ?2",
                           {cutoff.us(), int64_t{limit}}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  std::vector<EndedJob> out;
  for (const SqlRow& r : *rows) {
    out.push_back({JobId(static_cast<uint32_t>(as_int(r[0]))), as_text(r[1]), as_text(r[2])});
  }
  return out;
}

SqlStatement delete_job_row(JobId id) { return {"DELETE FROM jobs WHERE id = ?1", {int64_t{id.value()}}}; }

}  // namespace boreas::server
