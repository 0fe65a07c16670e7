#pragma once
// The engine's typed event payloads. The engine's queue orders events by (time, sequence) and
// dispatches on the payload: finishes and wake-ups are the engine's own, rack checks come from
// Physics, and the fault payloads from the fault processes (sim/faults.h).

#include <cstdint>
#include <variant>

#include "core/ids.h"

namespace boreas::sim {

// A run's computed finish; stale when the job's version moved on (rate or allocation changed).
struct FinishEvent {
  JobId job;
  uint32_t version = 0;
};

// A wake-up the scheduler asked for (Plan::wake_at).
struct WakeEvent {};

// A pending thermal check of one rack (stale when the rack's version moved on).
struct RackCheckEvent {
  uint32_t rack = 0;
  uint32_t version = 0;
};

// The random failure process's live draw: one component (stale when the draw moved on).
struct FailureEvent {
  uint32_t component = 0;
  uint32_t version = 0;
};

// A failure placed by hand: index into PhysicsOptions::injected_failures.
struct InjectedFailureEvent {
  uint32_t index = 0;
};

// The spot process's live reclaim of a node (stale when the draw moved on).
struct ReclaimEvent {
  NodeId node;
  uint32_t version = 0;
};

// A node back in service after a repair or a reclaim.
struct NodeBackEvent {
  NodeId node;
};

using FaultEvent = std::variant<FailureEvent, InjectedFailureEvent, ReclaimEvent, NodeBackEvent>;
using EventPayload = std::variant<FinishEvent, WakeEvent, RackCheckEvent, FaultEvent>;

}  // namespace boreas::sim
