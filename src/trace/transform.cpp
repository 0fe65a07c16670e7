#include "trace/transform.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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

void apply_slice(Trace& trace, uint64_t n, uint64_t seed) {
  auto& jobs = trace.jobs;
  if (n >= jobs.size()) {
    return;
  }
  std::mt19937_64 rng(seed);
  const uint64_t first = rng() % (jobs.size() - n + 1);  // modulo bias negligible (see above)
  std::vector<JobSpec> kept(jobs.begin() + static_cast<std::ptrdiff_t>(first),
                            jobs.begin() + static_cast<std::ptrdiff_t>(first + n));
  jobs = std::move(kept);
  renumber(trace);
}

namespace {

// The clipped offered load were arrivals stretched by `factor`.
double load_at(const Trace& trace, double capacity_gpus, double factor) {
  const Time origin = trace.jobs.front().submit;
  const double window = (trace.jobs.back().submit - origin).to_seconds() * factor;
  double work = 0;
  for (const JobSpec& j : trace.jobs) {
    const double left = window - (j.submit - origin).to_seconds() * factor;
    work += std::min(j.duration.to_seconds(), left) * j.gpus;
  }
  return work / (capacity_gpus * window);
}

}  // namespace

double offered_load(const Trace& trace, double capacity_gpus) {
  if (trace.jobs.size() < 2 || capacity_gpus <= 0 || trace.jobs.back().submit == trace.jobs.front().submit) {
    return 0;
  }
  return load_at(trace, capacity_gpus, 1.0);
}

void scale_arrivals(Trace& trace, double factor) {
  if (trace.jobs.empty()) {
    return;
  }
  const Time origin = trace.jobs.front().submit;
  for (JobSpec& j : trace.jobs) {
    const double gap_us = static_cast<double>((j.submit - origin).us()) * factor;
    j.submit = origin + Duration::micros(std::llround(gap_us));
  }
}

Status set_offered_load(Trace& trace, double capacity_gpus, double target) {
  if (!(target > 0)) {
    return invalid_argument("--load: give an offered load > 0, e.g. --load 0.7");
  }
  if (offered_load(trace, capacity_gpus) <= 0) {
    return invalid_argument(
        "--load: the trace's jobs are all submitted at one instant (or carry no GPU work), so there is "
        "no arrival rate to rescale; drop --load");
  }
  // load_at falls (weakly) as the factor grows: bisect on its logarithm.
  double lo = std::log(1e-9), hi = std::log(1e9);
  if (load_at(trace, capacity_gpus, std::exp(lo)) < target) {
    return invalid_argument(fmt::format(
        "--load: even with every job arriving at once the trace cannot offer {:g} of the cluster; use a lower "
        "--load, more jobs (--slice) or a smaller cluster",
        target));
  }
  for (int i = 0; i < 200 && hi - lo > 1e-13; ++i) {
    const double mid = (lo + hi) / 2;
    (load_at(trace, capacity_gpus, std::exp(mid)) > target ? lo : hi) = mid;
  }
  scale_arrivals(trace, std::exp((lo + hi) / 2));
  return Status::ok();
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
