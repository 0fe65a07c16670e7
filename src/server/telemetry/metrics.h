#pragma once
// A small metrics registry that renders the Prometheus text exposition format (version 0.0.4):
// counters, gauges and histograms with labels. Families are registered once by the owner and
// updated from any thread.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace boreas::server {

enum class MetricType : uint8_t { kCounter, kGauge, kHistogram };

using LabelValues = std::vector<std::string>;  // in the family's label-name order

class MetricFamily {
 public:
  MetricFamily(std::string name, std::string help, MetricType type,
               std::vector<std::string> label_names, std::vector<double> buckets);

  void add(const LabelValues& labels, double delta = 1);  // counters and gauges
  void set(const LabelValues& labels, double value);      // gauges
  void observe(const LabelValues& labels, double value);  // histograms
  void clear();  // drops every series (gauges recomputed from state on each scrape)
  void render(std::string& out) const;

  const std::string& name() const { return name_; }

 private:
  struct Series {
    double value = 0;             // counter / gauge
    std::vector<uint64_t> counts;  // histogram: per bucket, not cumulative
    double sum = 0;
    uint64_t count = 0;
  };
  Series& series(const LabelValues& labels);
  std::string label_text(const LabelValues& values, const std::string& extra) const;
  void render_histogram(std::string& out, const LabelValues& labels, const Series& s) const;

  std::string name_;
  std::string help_;
  MetricType type_;
  std::vector<std::string> label_names_;
  std::vector<double> buckets_;
  mutable std::mutex mu_;
  std::map<LabelValues, Series> series_;
};

class MetricsRegistry {
 public:
  // Names follow the Prometheus rules (counters end in _total); a bad name is a programmer error.
  MetricFamily& add(std::string name, std::string help, MetricType type,
                    std::vector<std::string> label_names = {}, std::vector<double> buckets = {});
  // `refresh` runs at the start of every render(), to set gauges read at scrape time.
  void on_render(std::function<void()> refresh);
  std::string render() const;

 private:
  std::vector<std::unique_ptr<MetricFamily>> families_;
  std::vector<std::function<void()>> refreshers_;
};

// `boreas_build_info{version,git} 1` and the standard process metrics, read from /proc/self on
// each scrape: process_resident_memory_bytes, process_cpu_seconds_total, process_open_fds,
// process_start_time_seconds (docs/live.md). Without /proc those series are absent.
void add_process_metrics(MetricsRegistry& registry, const std::string& version, const std::string& git);
// The commit this binary was configured from (`git rev-parse --short=12 HEAD`), or "unknown".
std::string_view build_git_commit();

// Helpers exposed for tests.
std::string escape_label_value(const std::string& v);
std::string escape_help(const std::string& v);
std::string format_sample_value(double v);
bool valid_metric_name(const std::string& name);
bool valid_label_name(const std::string& name);

}  // namespace boreas::server
