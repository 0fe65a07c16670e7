#include "server/telemetry/metrics.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <unistd.h>

namespace boreas::server {
namespace {

std::string_view type_name(MetricType t) {
  switch (t) {
    case MetricType::kCounter: return "counter";
    case MetricType::kGauge: return "gauge";
    case MetricType::kHistogram: return "histogram";
  }
  return "untyped";
}

bool name_char(char c, bool first, bool colon_ok) {
  const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  return alpha || (colon_ok && c == ':') || (!first && c >= '0' && c <= '9');
}

bool valid_name(const std::string& name, bool colon_ok) {
  if (name.empty()) {
    return false;
  }
  for (size_t i = 0; i < name.size(); ++i) {
    if (!name_char(name[i], i == 0, colon_ok)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool valid_metric_name(const std::string& name) { return valid_name(name, true); }

bool valid_label_name(const std::string& name) {
  return valid_name(name, false) && name.rfind("__", 0) != 0;
}

std::string escape_label_value(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string escape_help(const std::string& v) {
  std::string out;
  for (char c : v) {
    out += c == '\\' ? "\\\\" : c == '\n' ? "\\n" : std::string(1, c);
  }
  return out;
}

std::string format_sample_value(double v) {
  if (std::isnan(v)) {
    return "NaN";
  }
  if (std::isinf(v)) {
    return v > 0 ? "+Inf" : "-Inf";
  }
  char buf[32];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
  } else {
    for (int precision = 6; precision <= 17; ++precision) {  // shortest text that reads back exactly
      std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
      if (std::strtod(buf, nullptr) == v) {
        break;
      }
    }
  }
  return buf;
}

MetricFamily::MetricFamily(std::string name, std::string help, MetricType type,
                           std::vector<std::string> label_names, std::vector<double> buckets)
    : name_(std::move(name)),
      help_(std::move(help)),
      type_(type),
      label_names_(std::move(label_names)),
      buckets_(std::move(buckets)) {
  std::sort(buckets_.begin(), buckets_.end());
}

MetricFamily::Series& MetricFamily::series(const LabelValues& labels) {
  assert(labels.size() == label_names_.size() && "label values must match the family's names");
  Series& s = series_[labels];
  if (type_ == MetricType::kHistogram && s.counts.empty()) {
    s.counts.assign(buckets_.size(), 0);
  }
  return s;
}

void MetricFamily::add(const LabelValues& labels, double delta) {
  std::lock_guard lock(mu_);
  series(labels).value += delta;
}

void MetricFamily::set(const LabelValues& labels, double value) {
  std::lock_guard lock(mu_);
  series(labels).value = value;
}

void MetricFamily::observe(const LabelValues& labels, double value) {
  std::lock_guard lock(mu_);
  Series& s = series(labels);
  const auto it = std::lower_bound(buckets_.begin(), buckets_.end(), value);
  if (it != buckets_.end()) {
    ++s.counts[static_cast<size_t>(it - buckets_.begin())];
  }
  s.sum += value;
  ++s.count;
}

void MetricFamily::clear() {
  std::lock_guard lock(mu_);
  series_.clear();
}

std::string MetricFamily::label_text(const LabelValues& values, const std::string& extra) const {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    out += (out.empty() ? "" : ",") + label_names_[i] + "=\"" + escape_label_value(values[i]) + "\"";
  }
  if (!extra.empty()) {
    out += (out.empty() ? "" : ",") + extra;
  }
  return out.empty() ? out : "{" + out + "}";
}

void MetricFamily::render_histogram(std::string& out, const LabelValues& labels,
                                    const Series& s) const {
  uint64_t cumulative = 0;
  for (size_t i = 0; i < buckets_.size(); ++i) {
    cumulative += s.counts[i];
    out += name_ + "_bucket" + label_text(labels, "le=\"" + format_sample_value(buckets_[i]) + "\"") +
           " " + std::to_string(cumulative) + "\n";
  }
  out += name_ + "_bucket" + label_text(labels, "le=\"+Inf\"") + " " + std::to_string(s.count) + "\n";
  out += name_ + "_sum" + label_text(labels, "") + " " + format_sample_value(s.sum) + "\n";
  out += name_ + "_count" + label_text(labels, "") + " " + std::to_string(s.count) + "\n";
}

void MetricFamily::render(std::string& out) const {
  std::lock_guard lock(mu_);
  out += "# HELP " + name_ + " " + escape_help(help_) + "\n";
  out += "# TYPE " + name_ + " " + std::string(type_name(type_)) + "\n";
  for (const auto& [labels, s] : series_) {
    if (type_ == MetricType::kHistogram) {
      render_histogram(out, labels, s);
    } else {
      out += name_ + label_text(labels, "") + " " + format_sample_value(s.value) + "\n";
    }
  }
}

MetricFamily& MetricsRegistry::add(std::string name, std::string help, MetricType type,
                                   std::vector<std::string> label_names,
                                   std::vector<double> buckets) {
  assert(valid_metric_name(name) && "metric names match [a-zA-Z_:][a-zA-Z0-9_:]*");
  assert((type != MetricType::kCounter || name.ends_with("_total")) && "counters end in _total");
  assert(std::all_of(label_names.begin(), label_names.end(), valid_label_name));
  families_.push_back(std::make_unique<MetricFamily>(std::move(name), std::move(help), type,
                                                     std::move(label_names), std::move(buckets)));
  return *families_.back();
}

void MetricsRegistry::on_render(std::function<void()> refresh) { refreshers_.push_back(std::move(refresh)); }

std::string MetricsRegistry::render() const {
  for (const auto& refresh : refreshers_) {
    refresh();
  }
  std::string out;
  for (const auto& f : families_) {
    f->render(out);
  }
  return out;
}

namespace {

// What the process metrics need from /proc/self/stat: fields 14, 15 (utime, stime) and 22
// (starttime), in clock ticks. The command name (field 2) may hold spaces: fields are counted
// from the last ')'.
struct ProcStat {
  double utime_ticks = 0;
  double stime_ticks = 0;
  double start_ticks = 0;
};

std::optional<ProcStat> read_proc_stat() {
  std::ifstream in("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');
  if (close == std::string::npos) {
    return std::nullopt;
  }
  std::istringstream fields(text.substr(close + 1));
  std::vector<std::string> f((std::istream_iterator<std::string>(fields)), std::istream_iterator<std::string>());
  if (f.size() < 20) {  // f[0] is field 3 (state)
    return std::nullopt;
  }
  return ProcStat{std::strtod(f[11].c_str(), nullptr), std::strtod(f[12].c_str(), nullptr),
                  std::strtod(f[19].c_str(), nullptr)};
}

// Boot time in seconds since the epoch ("btime" in /proc/stat).
std::optional<double> boot_time() {
  std::ifstream in("/proc/stat");
  std::string key;
  double value = 0;
  while (in >> key) {
    if (key == "btime" && in >> value) {
      return value;
    }
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::nullopt;
}

std::optional<double> resident_bytes() {
  std::ifstream in("/proc/self/statm");
  double pages_total = 0;
  double pages_resident = 0;
  if (!(in >> pages_total >> pages_resident)) {
    return std::nullopt;
  }
  return pages_resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

std::optional<double> open_fds() {
  std::error_code ec;
  double count = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++count;
  }
  return ec ? std::nullopt : std::optional<double>(count);
}

void set_or_clear(MetricFamily& family, std::optional<double> value) {
  family.clear();
  if (value) {
    family.set({}, *value);
  }
}

}  // namespace

#ifndef BOREAS_GIT_COMMIT
#define BOREAS_GIT_COMMIT "unknown"
#endif

std::string_view build_git_commit() { return BOREAS_GIT_COMMIT; }

void add_process_metrics(MetricsRegistry& registry, const std::string& version, const std::string& git) {
  registry.add("boreas_build_info", "Always 1; the labels say which build is running.", MetricType::kGauge,
               {"version", "git"})
      .set({version, git}, 1);
  auto& rss = registry.add("process_resident_memory_bytes", "Resident memory size in bytes.", MetricType::kGauge);
  auto& cpu = registry.add("process_cpu_seconds_total", "User and system CPU time spent in seconds.",
                           MetricType::kCounter);
  auto& fds = registry.add("process_open_fds", "Number of open file descriptors.", MetricType::kGauge);
  auto& start = registry.add("process_start_time_seconds", "Start time of the process since the Unix epoch in seconds.",
                             MetricType::kGauge);
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  registry.on_render([&rss, &cpu, &fds, &start, ticks] {
    const auto stat = read_proc_stat();
    const auto boot = boot_time();
    set_or_clear(rss, resident_bytes());
    set_or_clear(cpu, stat ? std::optional<double>((stat->utime_ticks + stat->stime_ticks) / ticks) : std::nullopt);
    set_or_clear(fds, open_fds());
    set_or_clear(start, stat && boot ? std::optional<double>(*boot + stat->start_ticks / ticks) : std::nullopt);
  });
}

}  // namespace boreas::server
