#pragma once
// The variables that tell a service's replica who it is (docs/serving.md, "Services in the live
// daemon"). Set by the daemon on replica jobs only; like every BOREAS_* name they are reserved
// (a client's job may not set them), so the executor passes them through only for these three.

#include <string_view>

namespace boreas::server {

inline constexpr const char* kServiceEnv = "BOREAS_SERVICE";           // the service's name
inline constexpr const char* kReplicaEnv = "BOREAS_REPLICA";           // the replica's index
inline constexpr const char* kReplicaPortEnv = "BOREAS_REPLICA_PORT";  // the port it listens on

inline bool is_replica_env(std::string_view name) {
  return name == kServiceEnv || name == kReplicaEnv || name == kReplicaPortEnv;
}

}  // namespace boreas::server
