#pragma once
// `boreas sim --param NAME=VALUE[,NAME=VALUE]`: overrides of the declared model parameters
// (models/param_table.h), unknown names refused with a did-you-mean.

#include <string>

#include "core/status.h"
#include "sim/physics.h"

namespace boreas::cli {

Status apply_param_flag(const std::string& list, sim::PhysicsOptions& options);

}  // namespace boreas::cli
