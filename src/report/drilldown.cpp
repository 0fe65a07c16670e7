#include "report/drilldown.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

namespace boreas::report {
namespace {

using nlohmann::json;

// Repeated texts (queues, states, reasons, node lists) are stored once and referred to by index.
class Strings {
 public:
  size_t id(const std::string& text) {
    const auto [it, added] = index_.emplace(text, list_.size());
    if (added) {
      list_.push_back(text);
    }
    return it->second;
  }
  json list() const { return list_; }

 private:
  std::map<std::string, size_t> index_;
  std::vector<std::string> list_;
};

json seconds(double s) { return s < 0 ? json(nullptr) : json(std::round(s * 1000) / 1000); }

std::string joined(const std::vector<std::string>& nodes) {
  std::string out;
  for (const auto& n : nodes) {
    out += (out.empty() ? "" : ";") + n;
  }
  return out;
}

json policy_jobs(const PolicyRun& run, const std::set<int64_t>& ids, Strings& strings) {
  json jobs = json::array();
  for (const JobRow& j : run.jobs.rows) {
    if (ids.count(j.id)) {
      jobs.push_back({j.id, strings.id(j.queue), j.gpus, seconds(j.submit_s), seconds(j.first_start_s),
                      seconds(j.end_s), seconds(j.queue_s), j.preemptions, strings.id(j.state),
                      strings.id(j.pending_reason)});
    }
  }
  json runs = json::array();
  for (const JobRun& r : run.runs) {
    if (ids.count(r.job_id)) {
      runs.push_back({r.job_id, r.run, seconds(static_cast<double>(r.start_us) / 1e6),
                      seconds(static_cast<double>(r.end_us) / 1e6), strings.id(joined(r.nodes)), r.gpus,
                      strings.id(r.end_reason)});
    }
  }
  return {{"policy", run.name}, {"jobs", jobs}, {"runs", runs}};
}

// The job that waited longest under `run` among `ids` (ties: the lower id); -1 when none.
int64_t longest_wait(const PolicyRun& run, const std::set<int64_t>& ids) {
  int64_t best = -1;
  double wait = -1;
  for (const JobRow& j : run.jobs.rows) {
    if (ids.count(j.id) && (j.queue_s > wait || (j.queue_s == wait && j.id < best))) {
      best = j.id;
      wait = j.queue_s;
    }
  }
  return best;
}

}  // namespace

std::vector<int64_t> drilldown_ids(const std::vector<PolicyRun>& runs, size_t max_jobs,
                                   const std::vector<int64_t>& wanted) {
  std::map<int64_t, double> longest;  // id -> its longest wait under any policy
  for (const auto& run : runs) {
    for (const JobRow& j : run.jobs.rows) {
      auto [it, added] = longest.emplace(j.id, j.queue_s);
      it->second = std::max(it->second, j.queue_s);
    }
  }
  std::vector<std::pair<double, int64_t>> order;  // (-wait, id): longest first, then lower id
  for (const auto& [id, wait] : longest) {
    order.emplace_back(-wait, id);
  }
  std::sort(order.begin(), order.end());
  std::set<int64_t> chosen;
  for (size_t i = 0; i < order.size() && i < max_jobs; ++i) {
    chosen.insert(order[i].second);
  }
  for (const int64_t id : wanted) {
    if (longest.count(id)) {
      chosen.insert(id);
    }
  }
  return {chosen.begin(), chosen.end()};
}

json job_drilldown(const std::vector<PolicyRun>& runs, size_t baseline, size_t max_jobs,
                   const std::vector<int64_t>& wanted) {
  const auto chosen = drilldown_ids(runs, max_jobs, wanted);
  const std::set<int64_t> ids(chosen.begin(), chosen.end());
  size_t total = 0;
  for (const auto& run : runs) {
    total = std::max(total, run.jobs.rows.size());
  }
  Strings strings;
  json policies = json::array();
  for (const auto& run : runs) {
    policies.push_back(policy_jobs(run, ids, strings));
  }
  return {{"total", total},
          {"shown", ids.size()},
          {"selection", ids.size() >= total ? "all" : "longest-waiting"},
          {"default_job", runs.empty() ? -1 : longest_wait(runs[baseline], ids)},
          {"strings", strings.list()},
          {"policies", policies}};
}

}  // namespace boreas::report
