#pragma once
// What users submit (JobSpec) and the lifecycle every driver enforces (JobState).

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/ids.h"
#include "core/status.h"
#include "core/symbol.h"
#include "core/time.h"

namespace boreas {

enum class JobKind : uint8_t { kTraining, kInference, kBatch };
std::string_view to_string(JobKind kind);
std::optional<JobKind> parse_job_kind(std::string_view s);

// Kept compact (≈ 100 bytes): strings are Symbols into the owning SymbolTable.
struct JobSpec {
  JobId id;
  Symbol name;            // the source's job id or name, for reports
  Symbol queue;           // queue (virtual cluster, account, partition)
  Symbol user;
  Symbol priority_class;  // e.g. "production"; empty = the queue's default
  Symbol job_class;       // workload class for the throughput model, e.g. "transformer-training"
  Symbol gpu_types;       // allowed GPU types, '|'-separated (e.g. "V100M16|V100M32"); empty = any
  JobKind kind = JobKind::kTraining;
  bool preemptible = true;
  uint16_t gpu_milli = 1000;  // share of each GPU, 1000 = whole GPU (fractional GPU sharing)
  uint32_t gpus = 0;           // GPUs in the gang; 0 = CPU-only
  uint32_t gpus_per_node = 0;  // required shape; 0 = any
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  Time submit;
  Duration duration;             // run time on the reference GPU type at full speed (the work)
  Duration time_limit;           // 0 = none; what the user asked for (used by backfill)
  Duration checkpoint_interval;  // 0 = never checkpoints
  Duration checkpoint_cost;      // time to write one checkpoint
};

enum class JobState : uint8_t { kPending, kRunning, kPreempted, kCompleted, kFailed, kCancelled };
std::string_view to_string(JobState state);
bool is_terminal(JobState state);
// Legal moves: pending→running|cancelled; running→completed|failed|cancelled|preempted|pending
// (requeued after a node failure); preempted→running|cancelled|pending.
bool can_transition(JobState from, JobState to);
Status check_transition(JobState from, JobState to);

}  // namespace boreas
