#pragma once
// Memory settings for a batch command (`boreas sim`): a run builds and drops large vectors over and
// over (plans, run records, output buffers); glibc would hand each freed top of a heap back to the
// kernel and map large blocks afresh, so every reuse page-faults again. A batch process keeps what
// it freed instead (the daemon does not call this).

namespace boreas::cli {

void keep_freed_memory();

}  // namespace boreas::cli
