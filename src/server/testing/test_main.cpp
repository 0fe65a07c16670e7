// server_test's main: jobs started by the tests exec this binary as their supervisor
// (/proc/self/exe __supervise, server/supervisor.h), so it answers that call as `boreas` does.
// Defined here, libgtest_main's main is not linked.

#include <gtest/gtest.h>

#include "server/exec/supervisor.h"

int main(int argc, char** argv) {
  if (boreas::server::is_supervisor_call(argc, argv)) {
    return boreas::server::supervisor_main();
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
