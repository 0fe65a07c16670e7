#pragma once
// Shared by the `boreas` policy's round-by-round property tests: a plan as text (for comparing two
// schedulers' plans with a readable difference) and a queue tree with three classes, one of which
// may not be preempted.

#include <string>

#include "policy/explain.h"
#include "policy/plan.h"
#include "policy/reason_book.h"
#include "policy/scheduler.h"
#include "state/cluster_state.h"

namespace boreas::testing {

// org (12 GPUs) over t1 (6) and t2 (4), and x (8); `prod` may not be preempted.
inline constexpr const char* kClassedTree =
    "priority_classes:\n"
    "  - {name: prod, value: 20, preemptible: false}\n"
    "  - {name: high, value: 10}\n"
    "  - {name: low, value: 1}\n"
    "queues:\n"
    "  - {name: org, quotas: [{gpu: '*', guaranteed: 12}]}\n"
    "  - {name: t1, parent: org, quotas: [{gpu: '*', guaranteed: 6}]}\n"
    "  - {name: t2, parent: org, quotas: [{gpu: '*', guaranteed: 4}]}\n"
    "  - {name: x, quotas: [{gpu: '*', guaranteed: 8}]}\n";

inline std::string plan_text(const policy::Plan& plan) {
  std::string out = "preempt";
  for (JobId v : plan.preemptions) {
    out += " " + std::to_string(v.value());
  }
  for (const policy::Start& st : plan.starts) {
    out += "; start " + std::to_string(st.job.value()) + " on";
    for (GpuId g : st.gpus) {
      out += " " + std::to_string(g.value());
    }
  }
  return out + "; wake " + (plan.wake_at ? std::to_string(plan.wake_at->us()) : "-");
}

// Two schedulers' plans of one round and then every job's pending reason, each plan's reasons
// applied to its scheduler's book (as a driver keeps them): the first difference, or "" when they
// agree.
inline std::string round_difference(const policy::Plan& a, const policy::Plan& b, policy::ReasonBook& ba,
                                    policy::ReasonBook& bb, uint32_t jobs) {
  ba.apply(a.reasons);
  bb.apply(b.reasons);
  if (plan_text(a) != plan_text(b)) {
    return "plans differ: " + plan_text(a) + " | " + plan_text(b);
  }
  for (uint32_t j = 0; j < jobs; ++j) {
    const std::string ra = policy::describe(ba.reason(JobId(j)));
    const std::string rb = policy::describe(bb.reason(JobId(j)));
    if (ra != rb) {
      return "job " + std::to_string(j) + ": " + ra + " | " + rb;
    }
  }
  return "";
}

// Applies a plan as the engine does: preemptions, then starts.
inline Status apply_plan(state::ClusterState& s, const policy::Plan& plan, Time now) {
  for (JobId v : plan.preemptions) {
    BOREAS_RETURN_IF_ERROR(s.preempt(v, now));
  }
  for (const policy::Start& st : plan.starts) {
    BOREAS_RETURN_IF_ERROR(s.start(st.job, st.gpus, now));
  }
  return Status::ok();
}

}  // namespace boreas::testing
