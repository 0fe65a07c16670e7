#include "trace/transform.h"

#include <algorithm>
#include <random>

#include "trace/text.h"

namespace boreas::trace {
namespace {

std::optional<Time> parse_offset(std::string_view s) {
  static const std::pair<std::string_view, int64_t> kUnits[] = {
      {"min", 60'000'000}, {"s", 1'000'000}, {"h", 3'600'000'000}, {"d", 86'400'000'000}};
  for (const auto& [suffix, unit] : kUnits) {
    if (s.ends_with(suffix)) {
      const auto v = parse_scaled(s.substr(0, s.size() - suffix.size()), unit);
      return v ? std::optional(Time::from_micros(*v)) : std::nullopt;
    }
  }
  const auto v = parse_scaled(s, 1'000'000);
  return v ? std::optional(Time::from_micros(*v)) : std::nullopt;
}

std::optional<std::pair<uint32_t, uint32_t>> parse_range(std::string_view s) {
  const size_t dash = s.find('-');
  const auto lo = parse_int(s.substr(0, dash));
  const auto hi = dash == std::string_view::npos ? lo : parse_int(s.substr(dash + 1));
  if (!lo || !hi || *lo < 0 || *hi < *lo || *hi > UINT32_MAX) {
    return std::nullopt;
  }
  return std::pair(static_cast<uint32_t>(*lo), static_cast<uint32_t>(*hi));
}

std::vector<std::string> split_bar(std::string_view s) {
  std::vector<std::string> out;
  while (true) {
    const size_t bar = s.find('|');
    out.emplace_back(s.substr(0, bar));
    if (bar == std::string_view::npos) {
      return out;
    }
    s = s.substr(bar + 1);
  }
}

Status set_filter_key(std::string_view key, std::string_view value, Filter& f) {
  const auto bad = [&](const char* expected) {
    return invalid_argument("--filter: '" + std::string(key) + "' expects " + expected + ", got '" +
                            std::string(value) + "'");
  };
  if (key == "from" || key == "to") {
    const auto t = parse_offset(value);
    if (!t) {
      return bad("a time since the trace start like 3600, 90min, 12h or 7d");
    }
    (key == "from" ? f.from : f.to) = t;
  } else if (key == "queue") {
    f.queues = split_bar(value);
  } else if (key == "gpus") {
    const auto r = parse_range(value);
    if (!r) {
      return bad("a GPU count N or a range LO-HI");
    }
    std::tie(f.min_gpus, f.max_gpus) = *r;
  } else {
    return invalid_argument("--filter: unknown key '" + std::string(key) + "'; use from, to, queue, gpus");
  }
  return Status::ok();
}

// Makes ids dense and the first submit 0 again after jobs were removed.
void renumber(Trace& trace) {
  auto& jobs = trace.jobs;
  const Time origin = jobs.empty() ? Time::zero() : jobs.front().submit;
  for (size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].id = JobId(static_cast<uint32_t>(i));
    jobs[i].submit = Time::zero() + (jobs[i].submit - origin);
  }
  jobs.shrink_to_fit();
}

}  // namespace

Result<Filter> parse_filter(const std::string& spec) {
  Filter f;
  std::string_view rest = spec;
  while (!rest.empty()) {
    const std::string_view item = take_item(rest);
    std::string_view key, value;
    if (!split_key_value(item, key, value)) {
      return invalid_argument("--filter: expected KEY=VALUE, got '" + std::string(item) + "'");
    }
    BOREAS_RETURN_IF_ERROR(set_filter_key(key, value, f));
  }
  return f;
}

void apply_filter(Trace& trace, const Filter& f) {
  const auto keep = [&](const JobSpec& j) {
    if ((f.from && j.submit < *f.from) || (f.to && j.submit >= *f.to)) {
      return false;
    }
    if (j.gpus < f.min_gpus || j.gpus > f.max_gpus) {
      return false;
    }
    const auto queue = trace.symbols.view(j.queue);
    return f.queues.empty() || std::find(f.queues.begin(), f.queues.end(), queue) != f.queues.end();
  };
  std::erase_if(trace.jobs, [&](const JobSpec& j) { return !keep(j); });
  renumber(trace);
}

void apply_sample(Trace& trace, uint64_t n, uint64_t seed) {
  auto& jobs = trace.jobs;
  if (n >= jobs.size()) {
    return;
  }
  // Partial Fisher–Yates over indexes with our own bounded draw (bit-reproducible everywhere).
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> index(jobs.size());
  for (uint32_t i = 0; i < index.size(); ++i) {
    index[i] = i;
  }
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t range = index.size() - i;
    const uint64_t j = i + rng() % range;  // modulo bias < range / 2^64: negligible
    std::swap(index[i], index[j]);
  }
  index.resize(n);
  std::sort(index.begin(), index.end());
  std::vector<JobSpec> kept;
  kept.reserve(n);
  for (const uint32_t i : index) {
    kept.push_back(jobs[i]);
  }
  jobs = std::move(kept);
  renumber(trace);
}

void remove_jobs(Trace& trace, const std::vector<JobId>& ids) {
  std::vector<bool> gone(trace.jobs.size(), false);
  for (JobId id : ids) {
    gone[id.value()] = true;
  }
  std::erase_if(trace.jobs, [&](const JobSpec& j) { return gone[j.id.value()]; });
  renumber(trace);
}

}  // namespace boreas::trace
