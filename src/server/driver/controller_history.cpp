// Ended jobs: they leave memory once their last row is durable, are read back from the store
// (one job, or a page of the list), and leave the store after the retention period.

#include <filesystem>

#include "core/job_states.h"
#include "server/driver/controller.h"
#include "server/jobs/job_records.h"

namespace boreas::server {
namespace {

constexpr uint32_t kPruneBatch = 1000;
const Duration kPruneEvery = Duration::seconds(10);

bool matches(const LiveJob& j, const JobQuery& q) {
  return j.id.value() > q.after && (q.state.empty() || q.state == to_string(j.state)) &&
         (q.queue.empty() || q.queue == j.request.queue) && (q.owner.empty() || q.owner == j.owner);
}

bool is_ended_state(const std::string& s) {
  const auto state = parse_job_state(s);
  return state && is_terminal(*state);
}

}  // namespace

Result<LiveJob> Controller::job(JobId id) {
  auto in_memory = call<std::optional<LiveJob>>([&]() -> std::optional<LiveJob> {
    const LiveJob* j = find(id);
    return j == nullptr ? std::nullopt : std::optional<LiveJob>(*j);
  });
  if (in_memory) {
    return *in_memory;
  }
  // Not in memory: ended with its last row durable, or never committed.
  auto stored = load_job(store_, id);
  if (!stored.is_ok()) {
    return stored.status();
  }
  if (!*stored) {
    return not_found("job " + std::to_string(id.value()) + " does not exist");
  }
  return std::move(**stored);
}

// The jobs in memory are copied on the controller thread; ended ones are read from the store
// outside it. A job in both (it ended in between) is taken from memory.
Result<JobPage> Controller::list(const JobQuery& q) {
  std::vector<LiveJob> active = call<std::vector<LiveJob>>([&] {
    std::vector<LiveJob> out;
    for (auto it = jobs_.upper_bound(q.after); it != jobs_.end() && out.size() < q.limit; ++it) {
      if (matches(it->second, q)) {
        out.push_back(it->second);
      }
    }
    return out;
  });
  std::vector<LiveJob> ended;
  if (q.state.empty() || is_ended_state(q.state)) {
    auto rows = load_ended_jobs(store_, q);
    if (!rows.is_ok()) {
      return rows.status();
    }
    ended = std::move(*rows);
  }
  const bool full = active.size() == q.limit || ended.size() == q.limit;
  std::map<uint32_t, LiveJob> merged;
  for (LiveJob& j : ended) {
    merged.emplace(j.id.value(), std::move(j));
  }
  for (LiveJob& j : active) {
    merged.insert_or_assign(j.id.value(), std::move(j));
  }
  JobPage page;
  for (auto& [id, j] : merged) {
    if (page.jobs.size() == q.limit) {
      break;
    }
    page.jobs.push_back(std::move(j));
  }
  page.more = full || merged.size() > q.limit;
  return page;
}

// An ended job stays in memory until its last row is durable, so a reader that misses it there
// finds it in the store.
void Controller::retire(LiveJob& job, std::future<Status> written) {
  retired_.emplace_back(job.id.value(), std::move(written));
}

void Controller::forget(const LiveJob& job) {
  const JobId slot = slot_of(job.id);
  if (slot.valid()) {
    slot_live_[slot.value()] = nullptr;  // the job leaves memory
  }
  job_slot_.erase(job.id.value());
  if (!job.idempotency_key.empty()) {
    idempotent_.erase({job.owner, job.idempotency_key});  // the store answers for it now
  }
  ended_counts_[{std::string(to_string(job.state)), job.request.queue}] += 1;
}

// A failed write is made again (with the job as it is now), so the job never leaves memory with
// its store row behind.
void Controller::drop_retired() {
  for (auto& [id, written] : retired_) {
    if (written.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      continue;
    }
    const auto it = jobs_.find(id);
    if (written.get().is_ok()) {
      forget(it->second);
      with_dependency_ -= it->second.request.dependency.empty() ? 0 : 1;
      jobs_.erase(it);
      id = 0;
    } else {
      written = write_async({update_job_row(it->second, config_.clock())});
    }
  }
  std::erase_if(retired_, [](const auto& r) { return r.first == 0; });
}

// Ended jobs older than the retention period leave the store, a batch every few seconds, and
// their directories (logs, exit file) go with them.
void Controller::prune_history(Time now) {
  if (retention_.retain <= Duration::zero() || now < next_prune_) {
    return;
  }
  next_prune_ = now + kPruneEvery;
  auto old = ended_before(store_, now - retention_.retain, kPruneBatch);
  if (!old.is_ok() || old->empty()) {
    return;
  }
  std::vector<SqlStatement> rows;
  for (const EndedJob& e : *old) {
    rows.push_back(delete_job_row(e.id));
  }
  if (!store_.write_sync({std::move(rows)}).is_ok()) {
    return;  // tried again at the next pass
  }
  for (const EndedJob& e : *old) {
    ended_counts_[{e.state, e.queue}] -= 1;
    if (!retention_.jobs_dir.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(retention_.jobs_dir + "/" + std::to_string(e.id.value()), ec);
    }
  }
  note("retention", {{"pruned", old->size()}, {"oldest_end_us", now.us() - retention_.retain.us()}});
  next_prune_ = old->size() == kPruneBatch ? now : next_prune_;  // more left: the next tick goes on
}

}  // namespace boreas::server
