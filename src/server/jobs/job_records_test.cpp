// A live job through its row in the store and back; a row whose spec or allocation does not parse
// is an error naming the job, never a job half read.
#include "server/jobs/job_records.h"

#include <gtest/gtest.h>

#include "server/jobs/job_json.h"
#include "server/testing/store_fixture.h"

namespace boreas::server {
namespace {

class JobRecords : public StoreFixture {
 protected:
  LiveJob job(uint32_t id) {
    LiveJob j;
    j.id = JobId(id);
    j.owner = "ann";
    j.request = *parse_submit(R"({"command":["sleep","5"],"gpus":3,"queue":"q1"})");
    j.submit = Time::from_micros(10);
    return j;
  }
};

TEST_F(JobRecords, ALiveJobReadsBackAsWritten) {
  LiveJob j = job(4);
  ASSERT_TRUE(store_->write_sync({{insert_job_row(j)}}).is_ok());
  j.state = JobState::kRunning;
  j.placement = {{0, {0, 1}}, {2, {5}}};
  j.process = {321, 77};
  j.start = Time::from_micros(20);
  j.ran = Duration::micros(9);
  ASSERT_TRUE(store_->write_sync({{update_job_row(j, Time::from_micros(30))}}).is_ok());
  auto back = load_job(*store_, JobId(4));
  ASSERT_TRUE(back.is_ok() && back->has_value()) << back.status().message();
  const LiveJob& b = **back;
  EXPECT_EQ(b.request.command, (std::vector<std::string>{"sleep", "5"}));
  EXPECT_EQ(b.request.gpus, 3u);
  EXPECT_EQ(b.request.queue, "q1");
  EXPECT_EQ(b.owner, "ann");
  EXPECT_EQ(b.state, JobState::kRunning);
  EXPECT_EQ(b.placement, j.placement);
  EXPECT_EQ(b.process.pid, 321);
  EXPECT_EQ(b.process.start_ticks, 77u);
  EXPECT_EQ(b.start.us(), 20);
  EXPECT_EQ(b.ran.us(), 9);
  EXPECT_EQ(load_active_jobs(*store_)->size(), 1u);
}

TEST_F(JobRecords, AnUnreadableSpecOrAllocationNamesTheJob) {
  ASSERT_TRUE(store_->write_sync({{insert_job_row(job(1)), insert_job_row(job(2))}}).is_ok());
  ASSERT_TRUE(store_->write_sync({{{"UPDATE jobs SET spec = '{\"command\":' WHERE id = 1", {}},
                                   {"UPDATE jobs SET allocation = '0:x' WHERE id = 2", {}}}})
                  .is_ok());
  auto spec = load_job(*store_, JobId(1));
  ASSERT_FALSE(spec.is_ok());
  EXPECT_TRUE(spec.status().message().starts_with("store: job 1: unreadable spec")) << spec.status().message();
  auto allocation = load_job(*store_, JobId(2));
  ASSERT_FALSE(allocation.is_ok());
  EXPECT_EQ(allocation.status().message(), "store: job 2: unreadable allocation `0:x`");
  EXPECT_FALSE(load_jobs(*store_).is_ok());
}

}  // namespace
}  // namespace boreas::server
