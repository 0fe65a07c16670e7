#include "support/peer_case.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace boreas::testing {

JobList read_peer_case(const std::string& path) {
  JobList out;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "job_id,submit_s,gpus,duration_s") << path;
  const Symbol queue = out.symbols.intern("default");
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string name;
    int64_t submit = 0, gpus = 0, duration = 0;
    char c1 = 0, c2 = 0;
    std::getline(row, name, ',');
    row >> submit >> c1 >> gpus >> c2 >> duration;
    EXPECT_FALSE(row.fail()) << path << ": " << line;
    JobSpec j;
    j.id = JobId(static_cast<uint32_t>(out.jobs.size()));
    j.name = out.symbols.add(name);
    j.queue = queue;
    j.submit = Time::from_seconds(submit);
    j.gpus = static_cast<uint32_t>(gpus);
    j.duration = Duration::seconds(duration);
    out.jobs.push_back(j);
  }
  return out;
}

}  // namespace boreas::testing
