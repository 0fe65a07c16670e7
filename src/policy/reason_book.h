#pragma once
// Each job's latest pending reason, as a driver learns them from the plans it applies (plan.h says
// how a plan carries them). The simulator's engine keeps one, the daemon's controller another;
// jobs.csv, the meter and the API read it. Reading a reason costs O(1): a job of the shared set is
// resolved from its place and the set's latest free GPUs.

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "policy/explain.h"
#include "policy/plan.h"

namespace boreas::policy {

// A quota hold: the job waits for a ceiling on its own queue's path, or asks for more than the
// cluster or a ceiling could ever give (the meter does not count its wait as idle capacity).
inline bool is_quota_hold(PendingKind kind) {
  return kind == PendingKind::kQuotaExceeded || kind == PendingKind::kNeverFits;
}

class ReasonBook {
 public:
  // Every plan, in order (a plan whose reasons were skipped leaves the book behind the policy).
  void apply(const Reasons& reasons);
  // kNone where the policy never gave the job a reason.
  PendingReason reason(JobId job) const;
  PendingKind kind(JobId job) const;
  // Whether any reason applied so far was a quota hold (false: no job is held by its quota). A
  // flag, not a count of current holds: keeping a count would read each entry a plan overwrites,
  // the shared set's too (measured: +2.7% of boreas + queues, in apply).
  bool gave_quota_holds() const { return gave_quota_holds_; }
  // For a new policy (its queue indexes and spans are its own).
  void clear();
  // Room for jobs 0..jobs-1 up front (a driver that knows its job count; optional).
  void size_for(size_t jobs);

 private:
  enum class Form : uint8_t { kNone, kExact, kNoFit, kShared };
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  struct Entry {
    Form form = Form::kNone;
    uint32_t span = 0;   // kShared: its index in spans_
    NoFitReason no_fit;  // kNoFit; kShared: queue, need and ahead + its span's `lowered` (modulo 2^32)
  };
  static_assert(sizeof(Entry) == 32, "two entries a cache line: apply reads one per reason");
  struct Span {
    uint32_t free = 0;
    uint32_t largest_block = 0;
    std::vector<uint32_t> lowered;  // by queue: what its members' ahead counts were lowered by in all
  };
  static uint32_t lowered(const Span& s, uint32_t queue) {
    return queue < s.lowered.size() ? s.lowered[queue] : 0;
  }
  Entry& entry(JobId job) {
    if (job.value() >= entries_.size()) {
      entries_.resize(job.value() + 1);
    }
    return entries_[job.value()];
  }
  NoFitReason resolve(const Entry& e) const;
  PendingReason& exact_slot(JobId job);  // the job's slot, made on its first exact reason

  std::vector<Entry> entries_;        // by job
  // Only the jobs that ever had an exact reason have a slot (a PendingReason is ~112 bytes: a slot
  // per job id touched ~13 MB on full Philly, 16% of the demo row's page faults).
  std::vector<PendingReason> exact_;
  std::vector<uint32_t> exact_slot_;  // by job: its slot in exact_ once it had an exact reason (kept)
  std::vector<std::string> queues_;
  std::vector<Span> spans_;
  bool gave_quota_holds_ = false;
};

}  // namespace boreas::policy
