#pragma once
// The daemon's files are readable by the daemon only (docs/live.md, Security).

#include <string>

#include "core/status.h"

namespace boreas::server {

// Creates DIR and DIR/jobs and closes them: from now on this process creates files 0600 and
// directories 0700 (umask 077); DIR and DIR/jobs are 0711 (a job's account may pass through to its
// own 0700 job directory but list nothing); an existing boreas.db and its -wal/-shm become 0600.
Status secure_data_dir(const std::string& dir);

}  // namespace boreas::server
