#pragma once
// Job dependencies as sbatch --dependency spells them: "afterok:12:13,afterany:14". Every item
// must hold (Slurm's ','; its '?' for "any of" is not supported). A pending job whose dependency
// is not met yet waits with reason `Dependency`; one that can never be met is cancelled with
// reason `DependencyNeverSatisfied`, as Slurm does.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/job.h"
#include "core/status.h"

namespace boreas::server {

enum class AfterKind : uint8_t { kOk, kAny, kNotOk };

struct Dependency {
  AfterKind kind = AfterKind::kOk;
  std::vector<JobId> jobs;  // API ids
};

enum class DependencyState : uint8_t { kMet, kWaiting, kNeverSatisfied };

// "" is no dependency. Errors quote the item and list the accepted forms.
Result<std::vector<Dependency>> parse_dependency(const std::string& text);
// `state_of` gives a named job's state; a job it does not know counts as never satisfying.
DependencyState dependency_state(const std::vector<Dependency>& deps,
                                 const std::function<std::optional<JobState>(JobId)>& state_of);

}  // namespace boreas::server
