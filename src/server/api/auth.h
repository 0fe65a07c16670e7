#pragma once
// Who may do what: roles, queue membership and one pure decision function (ARCHITECTURE §6).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace boreas::server {

enum class Role : uint8_t { kAdmin, kQueueAdmin, kUser, kViewer };
std::string_view to_string(Role role);
std::optional<Role> parse_role(std::string_view s);  // "admin", "queue-admin", "user", "viewer"

struct Principal {
  std::string name;
  Role role = Role::kViewer;
  std::vector<std::string> queues;  // queues it belongs to; "*" = every queue
  std::string unix_user = {};       // the account its jobs run as; empty = none mapped
  bool member_of(std::string_view queue) const;
};

enum class Action : uint8_t {
  kReadJob,     // see a job (list, get, why)
  kSubmit,      // create a job in a queue
  kCancel,      // cancel a job
  kCheckpoint,  // ask a job to checkpoint (SIGUSR1)
  kReadCluster, // list queues, nodes and GPUs
  kDrainNode,   // drain or resume a node
};
std::string_view to_string(Action action);

// What an action touches: the queue, and for an existing job, who owns it.
struct Scope {
  std::string queue;
  std::string owner;  // empty for submissions and cluster-wide actions
};

enum class Decision : uint8_t { kAllow, kUnauthenticated, kForbidden };

// nullopt principal = no or unknown token. Pure: no clock, no store.
Decision authorize(const std::optional<Principal>& who, Action action, const Scope& scope);

// A job's `env` may hold secrets: only its owner and admins see it (queue members see the job
// without it).
bool env_visible_to(const std::optional<Principal>& who, const std::string& owner);

}  // namespace boreas::server
