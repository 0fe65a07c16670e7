#pragma once
// Why a policy's utilization fell or its makespan grew against the baseline, in a few short
// sentences built only from what the runs recorded (jobs.csv and summary.json): the idle tail after
// the last submission, jobs held by their queue's quota, idle GPUs while jobs waited.

#include <nlohmann/json.hpp>

#include <string>

#include "report/run_data.h"

namespace boreas::report {

// `items` as headline() builds them; empty when neither "utilization" nor "makespan" got worse.
nlohmann::json explain_arm(const PolicyRun& base, const PolicyRun& arm, const nlohmann::json& items);

// "12.5 d" from two days up, else "7.3 h".
std::string days_or_hours(double seconds);

}  // namespace boreas::report
