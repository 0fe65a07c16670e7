#include "cli/job_mix.h"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <cmath>

#include "models/random.h"

namespace boreas::cli {

namespace {

constexpr double kShareTolerance = 1e-6;
// "none": an interval no job reaches (100 years), so nothing is ever written and a failure loses
// everything since the run started; a restore is still paid on restart.
constexpr int64_t kNeverSeconds = 100LL * 365 * 24 * 3600;
// Keeps the class draws apart from --slice's and the engine's streams of the same seed.
constexpr uint64_t kClassStream = 0x6a6f622d636c6173ULL;

std::string known_classes(const models::ThroughputParams& params) {
  std::string out;
  for (const auto& c : params.classes) {
    out += (out.empty() ? "" : ", ") + c.name;
  }
  return out;
}

Result<ClassShare> parse_share(std::string_view item, const models::ThroughputParams& params) {
  const size_t eq = item.find('=');
  if (eq == std::string_view::npos) {
    return invalid_argument(
        fmt::format("--job-classes: '{}' is not CLASS=SHARE, e.g. llm-inference=0.25", item));
  }
  ClassShare out{std::string(item.substr(0, eq)), 0};
  const std::string_view value = item.substr(eq + 1);
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out.share);
  if (ec != std::errc() || end != value.data() + value.size() || !(out.share > 0) || out.share > 1) {
    return invalid_argument(
        fmt::format("--job-classes: share '{}' of {} is not a number in (0, 1]", value, out.name));
  }
  const bool known = std::any_of(params.classes.begin(), params.classes.end(),
                                 [&](const models::JobClassProfile& c) { return c.name == out.name; });
  if (!known) {
    return invalid_argument(fmt::format("--job-classes: unknown class '{}'; the throughput model knows {}",
                                        out.name, known_classes(params)));
  }
  return out;
}

}  // namespace

Result<std::vector<ClassShare>> parse_job_classes(std::string_view list,
                                                  const models::ThroughputParams& params) {
  std::vector<ClassShare> mix;
  double total = 0;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (item.empty()) {
      continue;
    }
    auto share = parse_share(item, params);
    if (!share.is_ok()) {
      return share.status();
    }
    const bool repeated =
        std::any_of(mix.begin(), mix.end(), [&](const ClassShare& c) { return c.name == share->name; });
    if (repeated) {
      return invalid_argument(fmt::format("--job-classes: class {} is given twice", share->name));
    }
    total += share->share;
    mix.push_back(std::move(*share));
  }
  if (mix.empty() || std::abs(total - 1) > kShareTolerance) {
    return invalid_argument(
        fmt::format("--job-classes: the shares must sum to 1 (they sum to {}), e.g. "
                    "transformer-training=0.5,llm-inference=0.5",
                    total));
  }
  return mix;
}

void assign_job_classes(trace::Trace& trace, const std::vector<ClassShare>& mix, uint64_t seed) {
  if (mix.empty()) {
    return;
  }
  std::vector<Symbol> symbols;
  for (const ClassShare& c : mix) {
    symbols.push_back(trace.symbols.intern(c.name));
  }
  models::Rng rng(seed ^ kClassStream);
  for (JobSpec& job : trace.jobs) {
    const double u =
        models::uniform01(rng);  // drawn for every job, so a job's class depends on its position only
    if (!job.job_class.empty()) {
      continue;
    }
    double upto = 0;
    size_t pick = mix.size() - 1;
    for (size_t i = 0; i < mix.size(); ++i) {
      upto += mix[i].share;
      if (u < upto) {
        pick = i;
        break;
      }
    }
    job.job_class = symbols[pick];
  }
}

Result<Duration> parse_checkpoint_interval(std::string_view text) {
  if (text == "model") {
    return Duration::zero();
  }
  if (text == "none") {
    return Duration::seconds(kNeverSeconds);
  }
  double seconds = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc() || end != text.data() + text.size() || !(seconds > 0) || seconds > kNeverSeconds) {
    return invalid_argument(fmt::format(
        "--checkpoint-interval: '{}' is not model, none or a number of seconds > 0, e.g. 3600", text));
  }
  return Duration::from_seconds(seconds);
}

void set_checkpoint_interval(trace::Trace& trace, Duration interval) {
  if (interval <= Duration::zero()) {
    return;
  }
  for (JobSpec& job : trace.jobs) {
    if (job.checkpoint_interval <= Duration::zero()) {
      job.checkpoint_interval = interval;
    }
  }
}

}  // namespace boreas::cli
