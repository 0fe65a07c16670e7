#include "trace/builder.h"

#include <algorithm>
#include <limits>

namespace boreas::trace {

TraceBuilder::TraceBuilder(std::string file, OnError on_error, ReadReport* report)
    : file_(std::move(file)), on_error_(on_error), report_(report != nullptr ? report : &local_report_) {
  *report_ = ReadReport{};
}

void TraceBuilder::add(const JobSpec& job) { trace_.jobs.push_back(job); }

Status TraceBuilder::row_error(uint64_t line, const RowError& error) {
  const std::string location = file_ + ":" + std::to_string(line);
  if (on_error_ == OnError::kFail) {
    return invalid_argument(location + ": " + error.message() +
                            "; fix the line or pass --on-error=skip to skip bad lines");
  }
  ++report_->skipped;
  ++report_->skipped_by_reason[error.what];
  report_->first_location_by_reason.emplace(error.what, location);
  return Status::ok();
}

void TraceBuilder::exclude(uint64_t line, const std::string& reason) {
  ++report_->excluded;
  ++report_->excluded_by_reason[reason];
  report_->first_location_by_reason.emplace(reason, file_ + ":" + std::to_string(line));
}

Status TraceBuilder::take(uint64_t line, const std::optional<RowError>& error, const JobSpec& job,
                          const std::string& excluded) {
  if (error) {
    return row_error(line, *error);
  }
  if (!excluded.empty()) {
    exclude(line, excluded);
  } else {
    add(job);
  }
  return Status::ok();
}

Status TraceBuilder::fatal(uint64_t line, const std::string& message) const {
  return invalid_argument(file_ + ":" + std::to_string(line) + ": " + message);
}

Trace TraceBuilder::finish(std::string format) {
  auto& jobs = trace_.jobs;
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const JobSpec& a, const JobSpec& b) { return a.submit < b.submit; });
  const Time origin = jobs.empty() ? Time::zero() : jobs.front().submit;
  for (size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].id = JobId(static_cast<uint32_t>(i));
    jobs[i].submit = Time::from_micros(jobs[i].submit.us() - origin.us());
  }
  // No shrink_to_fit: it would copy every job once more (≈ 10 MB on full Philly) to give back
  // capacity the growth left, which costs nothing while no page of it is touched.
  trace_.format = std::move(format);
  report_->lines_read = lines_read_;
  report_->jobs = jobs.size();
  return std::move(trace_);
}

}  // namespace boreas::trace
