#include "report/headline_notes.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

namespace boreas::report {
namespace {

using nlohmann::json;

bool got_worse(const json& items, const char* key) {
  return std::any_of(items.begin(), items.end(),
                     [&](const json& i) { return i["key"] == key && i["better"] == false; });
}

const JobRow* find_job(const std::vector<JobRow>& rows, int64_t id) {
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const JobRow& r) { return r.id == id; });
  return it == rows.end() ? nullptr : &*it;
}

double last_submit(const std::vector<JobRow>& rows) {
  double last = 0;
  for (const auto& r : rows) {
    last = std::max(last, r.submit_s);
  }
  return last;
}

// The job that ended last (ties: the lower id), or null when none ended.
const JobRow* last_to_end(const std::vector<JobRow>& rows) {
  const JobRow* last = nullptr;
  for (const auto& r : rows) {
    if (r.end_s >= 0 && (last == nullptr || r.end_s > last->end_s)) {
      last = &r;
    }
  }
  return last;
}

// The run went on after its last submission; which job set the end and how long it waited.
std::optional<std::string> tail_note(const PolicyRun& base, const PolicyRun& arm) {
  const JobRow* last = last_to_end(arm.jobs.rows);
  const JobRow* last_base = last_to_end(base.jobs.rows);
  if (last == nullptr || last_base == nullptr) {
    return std::nullopt;
  }
  const double submit = last_submit(arm.jobs.rows);
  std::string text = fmt::format(
      "After the last submission (at {}) {} ran {} more, {} {}. The last job to finish under {} was job {} "
      "({}, {} GPUs): it waited {}",
      days_or_hours(submit), arm.name, days_or_hours(std::max(0.0, last->end_s - submit)), base.name,
      days_or_hours(std::max(0.0, last_base->end_s - last_submit(base.jobs.rows))), arm.name, last->id,
      last->queue.empty() ? "no queue" : "queue " + last->queue, last->gpus, days_or_hours(last->queue_s));
  if (const JobRow* same = find_job(base.jobs.rows, last->id); same != nullptr) {
    text += fmt::format(" ({} under {})", days_or_hours(same->queue_s), base.name);
  }
  return text + ".";
}

int64_t count_quota_held(const std::vector<JobRow>& rows) {
  return std::count_if(rows.begin(), rows.end(),
                       [](const JobRow& r) { return r.pending_reason.rfind("quota-exceeded", 0) == 0; });
}

std::optional<std::string> quota_note(const PolicyRun& base, const PolicyRun& arm) {
  const int64_t held = count_quota_held(arm.jobs.rows);
  if (held == 0) {
    return std::nullopt;
  }
  return fmt::format(
      "{} of {} jobs under {} last waited because their queue had reached its quota (`quota-exceeded` in "
      "jobs.csv; {} under {}): such a job waits even when GPUs are free.",
      held, arm.jobs.rows.size(), arm.name, count_quota_held(base.jobs.rows), base.name);
}

std::optional<double> number(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
}

std::optional<std::string> idle_note(const PolicyRun& base, const PolicyRun& arm) {
  const auto b = number(base.summary, "idle_gpu_hours_while_waiting");
  const auto a = number(arm.summary, "idle_gpu_hours_while_waiting");
  if (!a || !b || *a <= *b) {
    return std::nullopt;
  }
  return fmt::format("GPUs idle while jobs that fit them waited (not held by their own quota): {:.0f} GPU-hours "
                     "under {}, {:.0f} under {}.",
                     *a, arm.name, *b, base.name);
}

// Only when makespan utilization fell (the table shows it even when the headline uses the window's).
std::optional<std::string> same_work_note(const PolicyRun& base, const PolicyRun& arm) {
  const auto b = number(base.summary, "completed_ref_gpu_hours");
  const auto a = number(arm.summary, "completed_ref_gpu_hours");
  const auto bu = number(base.summary, "makespan_utilization");
  const auto au = number(arm.summary, "makespan_utilization");
  if (!a || !b || *b <= 0 || std::fabs(*a / *b - 1) > 0.001 || (au && bu && *au >= *bu)) {
    return std::nullopt;
  }
  return fmt::format("Both completed the same work ({:.0f} GPU-hours), so the longer makespan alone lowers makespan "
                     "utilization (in the table).",
                     *a);
}

}  // namespace

std::string days_or_hours(double seconds) {
  return seconds >= 2 * 86400 ? fmt::format("{:.1f} d", seconds / 86400) : fmt::format("{:.1f} h", seconds / 3600);
}

json explain_arm(const PolicyRun& base, const PolicyRun& arm, const json& items) {
  json notes = json::array();
  const bool longer = got_worse(items, "makespan");
  if (!longer && !got_worse(items, "utilization")) {
    return notes;
  }
  for (const auto& note : {longer ? tail_note(base, arm) : std::nullopt, quota_note(base, arm), idle_note(base, arm),
                           longer ? same_work_note(base, arm) : std::nullopt}) {
    if (note) {
      notes.push_back(*note);
    }
  }
  return notes;
}

}  // namespace boreas::report
