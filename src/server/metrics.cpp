#include "server/metrics.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>

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

std::string MetricsRegistry::render() const {
  std::string out;
  for (const auto& f : families_) {
    f->render(out);
  }
  return out;
}

}  // namespace boreas::server
