#pragma once
// sbatch's -o/--output and -e/--error: a file for the job's standard output or error instead of
// the job directory's stdout.log / stderr.log. The pattern may name the job: %j (its id), %x (its
// name), %% (a percent sign); any other % escape is refused. A relative path is relative to the
// job's working directory. The job opens the file itself, after switching to its Unix account,
// so it can only write where that account may.

#include <string>

#include "core/ids.h"
#include "core/status.h"

namespace boreas::server {

// Checks a pattern given as the request's `field`: at most 4,096 bytes, no NUL or line break,
// only %j, %x and %% as escapes.
Status check_output_pattern(const std::string& field, const std::string& pattern);

// The pattern with %j, %x and %% replaced (empty stays empty: the executor's default file).
std::string expand_output_pattern(const std::string& pattern, JobId job, const std::string& name);

}  // namespace boreas::server
