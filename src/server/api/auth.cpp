#include "server/api/auth.h"

#include <algorithm>

namespace boreas::server {
namespace {

bool mutates_job(Action a) {
  return a == Action::kSubmit || a == Action::kCancel || a == Action::kCheckpoint;
}

Decision allow_if(bool ok) { return ok ? Decision::kAllow : Decision::kForbidden; }

}  // namespace

std::string_view to_string(Role role) {
  switch (role) {
    case Role::kAdmin: return "admin";
    case Role::kQueueAdmin: return "queue-admin";
    case Role::kUser: return "user";
    case Role::kViewer: return "viewer";
  }
  return "unknown";
}

std::optional<Role> parse_role(std::string_view s) {
  for (Role r : {Role::kAdmin, Role::kQueueAdmin, Role::kUser, Role::kViewer}) {
    if (to_string(r) == s) {
      return r;
    }
  }
  return std::nullopt;
}

std::string_view to_string(Action action) {
  switch (action) {
    case Action::kReadJob: return "read-job";
    case Action::kSubmit: return "submit";
    case Action::kCancel: return "cancel";
    case Action::kCheckpoint: return "checkpoint";
    case Action::kReadCluster: return "read-cluster";
    case Action::kDrainNode: return "drain-node";
  }
  return "unknown";
}

bool Principal::member_of(std::string_view queue) const {
  return std::any_of(queues.begin(), queues.end(),
                     [&](const std::string& q) { return q == "*" || q == queue; });
}

Decision authorize(const std::optional<Principal>& who, Action action, const Scope& scope) {
  if (!who) {
    return Decision::kUnauthenticated;
  }
  const Principal& p = *who;
  if (p.role == Role::kAdmin) {
    return Decision::kAllow;
  }
  switch (action) {
    case Action::kReadCluster:
      return Decision::kAllow;
    case Action::kDrainNode:
      return Decision::kForbidden;
    case Action::kReadJob:
      return allow_if(p.member_of(scope.queue));
    default:
      break;
  }
  if (!mutates_job(action) || p.role == Role::kViewer || !p.member_of(scope.queue)) {
    return Decision::kForbidden;
  }
  // A user touches only its own jobs; a queue admin every job of its queues.
  const bool own = action == Action::kSubmit || scope.owner == p.name;
  return allow_if(p.role == Role::kQueueAdmin || own);
}

bool env_visible_to(const std::optional<Principal>& who, const std::string& owner) {
  return who && (who->role == Role::kAdmin || who->name == owner);
}

}  // namespace boreas::server
