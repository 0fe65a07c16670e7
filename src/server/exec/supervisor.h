#pragma once
// The job supervisor: the daemon's own binary started again as `boreas __supervise` (posix_spawn,
// so the daemon's large address space is never copied). It reads its plan — the command, its
// environment, paths and account, a SpawnSpec — from fd 3, and waits on fd 4 for the go byte.
// The plan travels through a memory file, never argv or the supervisor's environment: argv is
// readable by every user (/proc/PID/cmdline), and the job's environment (LD_PRELOAD, say) must not
// reach the supervisor, which runs as the daemon's account until its child drops to the job's.

#include <string>
#include <string_view>

#include "core/status.h"
#include "server/exec/process.h"

namespace boreas::server {

// The program and argv[1] of a supervisor: the daemon's own binary (even after an upgrade replaced
// the file on disk). Every program that starts jobs handles the call first thing in main():
// `boreas`, and the test binaries that run jobs (server_test).
inline constexpr const char* kSupervisorProgram = "/proc/self/exe";
inline constexpr std::string_view kSupervisorArg = "__supervise";
inline constexpr int kPlanFd = 3;
inline constexpr int kGoFd = 4;

// A SpawnSpec as bytes: a version line, then each field as a netstring (`LEN:BYTES,`).
std::string encode_plan(const SpawnSpec& spec);
// The inverse; loud on anything malformed (which field, what was expected).
Result<SpawnSpec> decode_plan(std::string_view bytes);

// True when this process was started as a supervisor (`PROGRAM __supervise`).
bool is_supervisor_call(int argc, char** argv);

// The supervisor's whole life (see spawn_supervised in process.h): reads the plan from fd 3,
// waits for the go byte on fd 4, runs the command, records its wait status and exits. Returns
// (exit code 2, message on stderr) only when the plan cannot be read.
int supervisor_main();

}  // namespace boreas::server
