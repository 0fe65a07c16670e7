#include "policy/reason_book.h"

#include <algorithm>

namespace boreas::policy {

void ReasonBook::apply(const Reasons& r) {
  queues_.insert(queues_.end(), r.queues.begin(), r.queues.end());
  size_t next_exact = 0;
  for (const JobReason& jr : r.jobs) {
    Entry& e = entry(jr.job);
    if (jr.no_fit.kind != PendingKind::kNone) {
      e.form = Form::kNoFit;
      e.no_fit = jr.no_fit;
      gave_quota_holds_ = gave_quota_holds_ || is_quota_hold(jr.no_fit.kind);
      continue;
    }
    PendingReason& slot = exact_slot(jr.job);
    e.form = Form::kExact;
    slot = r.exact[next_exact++];
    gave_quota_holds_ = gave_quota_holds_ || is_quota_hold(slot.kind);
  }
  if (!r.shared) {
    return;
  }
  if (r.shared->new_span || spans_.empty()) {
    spans_.emplace_back();
  }
  Span& now = spans_.back();
  now.free = r.shared->free;
  now.largest_block = r.shared->largest_block;
  for (const SharedLowered& l : r.shared->lowered) {
    now.lowered.resize(std::max<size_t>(now.lowered.size(), l.queue + 1), 0);
    now.lowered[l.queue] += l.by;
  }
  const auto span = static_cast<uint32_t>(spans_.size() - 1);
  for (const SharedPlace& p : r.shared->placed) {
    Entry& e = entry(p.job);
    e.form = Form::kShared;
    e.span = span;
    e.no_fit.queue = p.queue;
    e.no_fit.need = p.need;
    e.no_fit.ahead = p.ahead + lowered(now, p.queue);
  }
}

PendingReason& ReasonBook::exact_slot(JobId job) {
  if (job.value() >= exact_slot_.size()) {
    exact_slot_.resize(std::max<size_t>(job.value() + 1, entries_.size()), kNoSlot);
  }
  uint32_t& slot = exact_slot_[job.value()];
  if (slot == kNoSlot) {
    slot = static_cast<uint32_t>(exact_.size());
    exact_.emplace_back();
  }
  return exact_[slot];
}

NoFitReason ReasonBook::resolve(const Entry& e) const {
  if (e.form != Form::kShared) {
    return e.no_fit;
  }
  const Span& s = spans_[e.span];
  const uint32_t ahead = e.no_fit.ahead - lowered(s, e.no_fit.queue);
  return no_fit_reason(e.no_fit.queue, e.no_fit.need, ahead, s.free, s.largest_block);
}

PendingReason ReasonBook::reason(JobId job) const {
  if (job.value() >= entries_.size()) {
    return {};
  }
  const Entry& e = entries_[job.value()];
  switch (e.form) {
    case Form::kNone:
      return {};
    case Form::kExact:
      return exact_[exact_slot_[job.value()]];
    default:
      return expand(resolve(e), queues_[e.no_fit.queue]);
  }
}

PendingKind ReasonBook::kind(JobId job) const {
  if (job.value() >= entries_.size()) {
    return PendingKind::kNone;
  }
  const Entry& e = entries_[job.value()];
  switch (e.form) {
    case Form::kNone:
      return PendingKind::kNone;
    case Form::kExact:
      return exact_[exact_slot_[job.value()]].kind;
    default:
      return resolve(e).kind;
  }
}

void ReasonBook::clear() {
  entries_.clear();
  exact_.clear();
  exact_slot_.clear();
  queues_.clear();
  spans_.clear();
  gave_quota_holds_ = false;
}

void ReasonBook::size_for(size_t jobs) { entries_.resize(std::max(entries_.size(), jobs)); }

}  // namespace boreas::policy
