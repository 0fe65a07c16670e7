#pragma once
// The pure decisions of a service's poll (server/service_manager.h): how many replicas to run,
// which to cancel, which index and port a new one gets. No clock, no I/O: unit-tested by hand.

#include <cstdint>
#include <functional>
#include <set>
#include <vector>

namespace boreas::server {

// The replica count after this poll. Up to `desired` at once; down to it only once `desired` has
// stayed below `current` for `delay_us` (Knative's stable window), so a lull between bursts does
// not cancel replicas that take a cold start to come back. `low_since_us` carries that wait
// between polls (-1: not waiting). `desired` is the autoscaler's, already within [min, max].
int32_t next_replica_count(int32_t current, int32_t desired, int64_t now_us, int64_t delay_us,
                           int64_t& low_since_us);

// How long to wait before replacing a replica after `failures` replica jobs in a row failed:
// the poll interval, doubled per further failure, at most 5 minutes (as Kubernetes' crash-loop
// back-off), so a replica whose command fails at once is not resubmitted every poll.
int64_t replica_backoff_us(int32_t failures, double interval_s);

// Scale-down cancels the newest replicas: the `n` largest job ids, largest first.
std::vector<uint32_t> newest_jobs(std::vector<uint32_t> jobs, size_t n);

// The smallest replica index not in `used` (0, 1, ...): indexes stay dense as replicas come and go.
int32_t free_index(const std::set<int32_t>& used);

// The lowest port in [lo, hi] not in `used` for which `bindable` holds; 0 when none.
int pick_port(const std::set<int>& used, int lo, int hi, const std::function<bool(int)>& bindable);

// Whether 127.0.0.1:port can be bound now (nothing else listens there).
bool port_bindable(int port);

}  // namespace boreas::server
