#include "sim/recovery.h"

#include <utility>

namespace boreas::sim {

void RecoveryClock::interrupted(JobId job, Time at, Duration left) {
  recovering_[job.value()].push_back(Interruption{at, left});
}

void RecoveryClock::check(JobId job, Time t, Duration left, double rate) {
  std::erase_if(recovering_[job.value()], [&](const Interruption& i) {
    if (left > i.left || rate <= 0) {
      return false;
    }
    const Time regained = t - Duration::from_seconds((i.left - left).to_seconds() / rate);
    recovery_s_.push_back((regained - i.at).to_seconds());
    return true;
  });
}

}  // namespace boreas::sim
