#include "server/store/job_rows.h"

#include "core/job_states.h"
#include "core/results.h"

namespace boreas::server {
namespace {

constexpr const char* kColumns =
    "SELECT id, spec, queue, owner, state, reason, allocation, pid, proc_start, submit_us, start_us, end_us, "
    "attempts, COALESCE(exit_code, -1), restarts, preemptions, ran_us, COALESCE(idempotency_key, ''), "
    "share_milli, share_bytes FROM jobs ";
// The ended states (is_terminal), spelled as migration 9's partial index jobs_ended_by_end spells
// them, so SQLite uses the index; rows_test checks they are the table's ended states.
constexpr const char* kEnded = "('completed', 'failed', 'cancelled')";

Result<JobRow> row_from(const SqlRow& r) {
  JobRow row;
  row.id = static_cast<uint32_t>(as_int(r[0]));
  auto state = parse_job_state(as_text(r[4]));
  if (!state) {
    return internal_error("store: job " + std::to_string(row.id) + ": unknown state `" + as_text(r[4]) +
                          "`; the store may be damaged");
  }
  row.spec = as_text(r[1]);
  row.queue = as_text(r[2]);
  row.owner = as_text(r[3]);
  row.state = *state;
  row.reason = as_text(r[5]);
  row.allocation = as_text(r[6]);
  row.pid = static_cast<int32_t>(as_int(r[7]));
  row.proc_start = static_cast<uint64_t>(as_int(r[8]));
  row.submit_us = as_int(r[9]);
  row.start_us = as_int(r[10]);
  row.end_us = as_int(r[11]);
  row.attempts = static_cast<uint32_t>(as_int(r[12]));
  row.exit_code = static_cast<int32_t>(as_int(r[13]));
  row.restarts = static_cast<uint32_t>(as_int(r[14]));
  row.preemptions = static_cast<uint32_t>(as_int(r[15]));
  row.ran_us = as_int(r[16]);
  row.idempotency_key = as_text(r[17]);
  row.share_milli = static_cast<uint32_t>(as_int(r[18]));
  row.share_bytes = static_cast<uint64_t>(as_int(r[19]));
  return row;
}

Result<std::vector<JobRow>> read_where(Store& store, const std::string& where, std::vector<SqlValue> params) {
  auto rows = store.query({kColumns + where, std::move(params)});
  if (!rows.is_ok()) {
    return rows.status();
  }
  return collect_results<JobRow>(*rows, row_from);
}

Result<std::optional<JobRow>> first_of(Result<std::vector<JobRow>> rows) {
  if (!rows.is_ok()) {
    return rows.status();
  }
  return rows->empty() ? std::optional<JobRow>() : std::optional<JobRow>(std::move(rows->front()));
}

}  // namespace

SqlStatement insert_job_statement(const JobRow& row) {
  const SqlValue key = row.idempotency_key.empty() ? SqlValue{} : SqlValue{row.idempotency_key};
  return {"INSERT INTO jobs(id, spec, queue, owner, state, submit_us, updated_us, idempotency_key) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)",
          {int64_t{row.id}, row.spec, row.queue, row.owner, std::string(to_string(row.state)), row.submit_us, key}};
}

SqlStatement update_job_statement(const JobRow& row, int64_t now_us) {
  return {"UPDATE jobs SET state = ?2, reason = ?3, allocation = ?4, pid = ?5, proc_start = ?6, "
          "start_us = ?7, end_us = ?8, attempts = ?9, exit_code = ?10, updated_us = ?11, restarts = ?12, "
          "preemptions = ?13, ran_us = ?14, share_milli = ?15, share_bytes = ?16 WHERE id = ?1",
          {int64_t{row.id}, std::string(to_string(row.state)), row.reason, row.allocation, int64_t{row.pid},
           static_cast<int64_t>(row.proc_start), row.start_us, row.end_us, int64_t{row.attempts},
           int64_t{row.exit_code}, now_us, int64_t{row.restarts}, int64_t{row.preemptions}, row.ran_us,
           int64_t{row.share_milli}, static_cast<int64_t>(row.share_bytes)}};
}

SqlStatement delete_job_row(JobId id) { return {"DELETE FROM jobs WHERE id = ?1", {int64_t{id.value()}}}; }

Result<std::vector<JobRow>> read_job_rows(Store& store) { return read_where(store, "ORDER BY id", {}); }

Result<std::vector<JobRow>> read_active_job_rows(Store& store) {
  return read_where(store, std::string("WHERE state NOT IN ") + kEnded + " ORDER BY id", {});
}

Result<std::optional<JobRow>> read_job_row(Store& store, JobId id) {
  return first_of(read_where(store, "WHERE id = ?1", {int64_t{id.value()}}));
}

Result<std::optional<JobRow>> read_job_row_by_key(Store& store, const std::string& owner, const std::string& key) {
  return first_of(read_where(store, "WHERE owner = ?1 AND idempotency_key = ?2", {owner, key}));
}

Result<std::vector<JobRow>> read_ended_job_rows(Store& store, const JobQuery& q) {
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
  return read_where(store, where, std::move(params));
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

}  // namespace boreas::server
