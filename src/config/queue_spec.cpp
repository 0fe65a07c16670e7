#include <algorithm>
#include <map>

#include "config/cluster_spec.h"
#include "config/spec_reader.h"
#include "config/suggest.h"

namespace boreas::config {
namespace {

// A queue as read, with the nodes needed to locate later errors.
struct RawQueue {
  QueueSpec spec;
  YAML::Node node;
  YAML::Node parent_node;
  YAML::Node classes_node;
  std::vector<YAML::Node> quota_nodes;
};

Status read_class(const SpecContext& ctx, const YAML::Node& node, QueueTree* tree) {
  const MapReader first(ctx, node, "priority class");
  BOREAS_RETURN_IF_ERROR(first.check({"name", "value", "preemptible"}));
  PriorityClass pc;
  BOREAS_RETURN_IF_ERROR(first.text("name", &pc.name, true));
  for (const auto& other : tree->priority_classes) {
    if (other.name == pc.name) {
      return ctx.error(first.get("name"), "duplicate priority class name '" + pc.name + "'",
                       "give each priority class its own name");
    }
  }
  const MapReader r(ctx, node, "priority class '" + pc.name + "'");
  int64_t value = 0;
  BOREAS_RETURN_IF_ERROR(r.integer("value", &value, true));
  if (value < INT32_MIN || value > INT32_MAX) {
    return ctx.error(r.get("value"), "'value' in " + r.what() + " is out of range", "use a 32-bit integer");
  }
  pc.value = static_cast<int32_t>(value);
  BOREAS_RETURN_IF_ERROR(r.boolean("preemptible", &pc.preemptible));
  tree->priority_classes.push_back(std::move(pc));
  return Status::ok();
}

Status read_limit(const MapReader& q, std::string_view key, std::optional<uint32_t>* out) {
  if (!q.has(key)) {
    return Status::ok();
  }
  int64_t v = 0;
  BOREAS_RETURN_IF_ERROR(q.count(key, &v, false, true));
  if (v > UINT32_MAX) {
    return q.ctx().error(q.get(key), "'" + std::string(key) + "' in " + q.what() + " is too large",
                         "use a GPU count below 2^32");
  }
  *out = static_cast<uint32_t>(v);
  return Status::ok();
}

Status read_quota(const MapReader& queue, const YAML::Node& node, const Cluster& cluster, GpuQuota* out) {
  const MapReader q(queue.ctx(), node, "a quota of " + queue.what());
  BOREAS_RETURN_IF_ERROR(q.check({"gpu", "guaranteed", "borrow_limit", "lend_limit"}));
  BOREAS_RETURN_IF_ERROR(q.text("gpu", &out->gpu_type));
  if (out->gpu_type != "*") {
    const auto id = cluster.catalog.find(out->gpu_type);
    if (!id) {
      const std::string hint = did_you_mean(out->gpu_type, cluster.catalog.names());
      return q.ctx().error(
          q.get("gpu"), "unknown GPU type '" + out->gpu_type + "' in " + q.what(),
          (hint.empty() ? "" : hint + " ") + "use '*' or one of: " + join(cluster.catalog.names()));
    }
    out->gpu_type = cluster.catalog.at(*id).name;
  }
  std::optional<uint32_t> guaranteed;
  BOREAS_RETURN_IF_ERROR(read_limit(q, "guaranteed", &guaranteed));
  out->guaranteed = guaranteed.value_or(0);
  BOREAS_RETURN_IF_ERROR(read_limit(q, "borrow_limit", &out->borrow_limit));
  return read_limit(q, "lend_limit", &out->lend_limit);
}

Result<RawQueue> read_queue(const SpecContext& ctx, const YAML::Node& node, const Cluster& cluster) {
  const MapReader first(ctx, node, "queue");
  BOREAS_RETURN_IF_ERROR(first.check({"name", "parent", "weight", "quotas", "priority_classes"}));
  RawQueue raw;
  raw.node = node;
  BOREAS_RETURN_IF_ERROR(first.text("name", &raw.spec.name, true));
  const MapReader q(ctx, node, "queue '" + raw.spec.name + "'");
  BOREAS_RETURN_IF_ERROR(q.text("parent", &raw.spec.parent));
  raw.parent_node = q.get("parent");
  BOREAS_RETURN_IF_ERROR(q.positive("weight", &raw.spec.weight));
  BOREAS_RETURN_IF_ERROR(q.text_list("priority_classes", &raw.spec.priority_classes));
  raw.classes_node = q.get("priority_classes");
  const YAML::Node quotas = q.get("quotas");
  BOREAS_RETURN_IF_ERROR(require_list(ctx, quotas, "quotas"));
  if (quotas.IsDefined()) {
    for (const auto& qn : quotas) {
      GpuQuota quota;
      BOREAS_RETURN_IF_ERROR(read_quota(q, qn, cluster, &quota));
      raw.spec.quotas.push_back(quota);
      raw.quota_nodes.push_back(qn);
    }
  }
  return raw;
}

std::vector<std::string> queue_names(const std::vector<RawQueue>& raw) {
  std::vector<std::string> out;
  for (const auto& r : raw) {
    out.push_back(r.spec.name);
  }
  return out;
}

int64_t index_of(const std::vector<RawQueue>& raw, const std::string& name) {
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i].spec.name == name) {
      return static_cast<int64_t>(i);
    }
  }
  return -1;
}

Status check_names(const SpecContext& ctx, const std::vector<RawQueue>& raw, const QueueTree& tree) {
  std::vector<std::string> classes;
  for (const auto& pc : tree.priority_classes) {
    classes.push_back(pc.name);
  }
  for (size_t i = 0; i < raw.size(); ++i) {
    const RawQueue& r = raw[i];
    if (index_of(raw, r.spec.name) != static_cast<int64_t>(i)) {
      return ctx.error(r.node, "duplicate queue name '" + r.spec.name + "'", "give each queue its own name");
    }
    if (!r.spec.parent.empty() && index_of(raw, r.spec.parent) < 0) {
      const std::string hint = did_you_mean(r.spec.parent, queue_names(raw));
      return ctx.error(r.parent_node,
                       "parent queue '" + r.spec.parent + "' of queue '" + r.spec.name + "' does not exist",
                       hint.empty() ? "define it, or remove 'parent' to make this a root queue" : hint);
    }
    for (size_t j = 0; j < r.spec.priority_classes.size(); ++j) {
      const std::string& c = r.spec.priority_classes[j];
      if (std::find(classes.begin(), classes.end(), c) == classes.end()) {
        const std::string hint = did_you_mean(c, classes);
        return ctx.error(r.classes_node[j],
                         "queue '" + r.spec.name + "' allows unknown priority class '" + c + "'",
                         hint.empty() ? "define it under 'priority_classes:'" : hint);
      }
    }
  }
  return Status::ok();
}

// Every parent exists (check_names); a queue that never reaches a root is on a cycle.
Status check_cycles(const SpecContext& ctx, const std::vector<RawQueue>& raw) {
  for (const RawQueue& start : raw) {
    std::vector<std::string> path = {start.spec.name};
    int64_t at = index_of(raw, start.spec.name);
    while (!raw[at].spec.parent.empty() && path.size() <= raw.size()) {
      at = index_of(raw, raw[at].spec.parent);
      path.push_back(raw[at].spec.name);
      if (raw[at].spec.name == start.spec.name) {
        return ctx.error(start.parent_node,
                         "queue '" + start.spec.name + "' is in a parent cycle: " + join(path, " -> "),
                         "remove 'parent' from one queue of the cycle to make it a root");
      }
    }
  }
  return Status::ok();
}

// Parents before children; siblings keep their order in the file.
QueueTree order_tree(const std::vector<RawQueue>& raw, QueueTree tree) {
  std::vector<std::string> frontier = {""};
  while (!frontier.empty()) {
    std::vector<std::string> next;
    for (const auto& parent : frontier) {
      for (const auto& r : raw) {
        if (r.spec.parent == parent) {
          tree.queues.push_back(r.spec);
          tree.parent.push_back(parent.empty() ? std::nullopt : tree.find(parent));
          next.push_back(r.spec.name);
        }
      }
    }
    frontier = std::move(next);
  }
  return tree;
}

uint32_t capacity(const Cluster& cluster, const std::string& type) {
  if (type == "*") {
    return cluster.gpu_count();
  }
  const auto id = cluster.catalog.find(type);
  uint32_t total = 0;
  for (const auto& n : cluster.nodes) {
    total += n.gpu_type == id ? n.gpu_count : 0;
  }
  return total;
}

// Guarantees of siblings that add up beyond the cluster's GPUs of that type can never all be met.
void warn_capacity(const SpecContext& ctx, const std::vector<RawQueue>& raw, const Cluster& cluster) {
  std::map<std::pair<std::string, std::string>, uint64_t> sums;  // (parent, type) -> Σ guaranteed
  for (const auto& r : raw) {
    for (size_t i = 0; i < r.spec.quotas.size(); ++i) {
      const GpuQuota& q = r.spec.quotas[i];
      uint64_t& sum = sums[{r.spec.parent, q.gpu_type}];
      const uint32_t cap = capacity(cluster, q.gpu_type);
      if (sum <= cap && sum + q.guaranteed > cap) {
        const std::string who = r.spec.parent.empty() ? "root queues" : "children of '" + r.spec.parent + "'";
        ctx.warn(r.quota_nodes[i],
                 "guaranteed " + q.gpu_type + " GPUs of the " + who + " reach " +
                     std::to_string(sum + q.guaranteed) + " at queue '" + r.spec.name +
                     "', above the cluster's " + std::to_string(cap),
                 "lower the guarantees; the excess can never be honoured");
      }
      sum += q.guaranteed;
    }
  }
}

Result<QueueTree> build_tree(const YAML::Node& root, const SpecContext& ctx, const Cluster& cluster) {
  const MapReader spec(ctx, root, "queue spec");
  BOREAS_RETURN_IF_ERROR(spec.check({"priority_classes", "queues", "description"}));
  QueueTree tree;
  const YAML::Node classes = spec.get("priority_classes");
  BOREAS_RETURN_IF_ERROR(require_list(ctx, classes, "priority_classes"));
  for (const auto& c : classes) {
    BOREAS_RETURN_IF_ERROR(read_class(ctx, c, &tree));
  }
  const YAML::Node queues = spec.get("queues");
  if (!queues.IsDefined()) {
    return ctx.error(root, "queue spec is missing required key 'queues'",
                     "add 'queues:' with at least one queue");
  }
  BOREAS_RETURN_IF_ERROR(require_list(ctx, queues, "queues"));
  std::vector<RawQueue> raw;
  for (const auto& q : queues) {
    Result<RawQueue> r = read_queue(ctx, q, cluster);
    if (!r.is_ok()) {
      return r.status();
    }
    raw.push_back(std::move(*r));
  }
  BOREAS_RETURN_IF_ERROR(check_names(ctx, raw, tree));
  BOREAS_RETURN_IF_ERROR(check_cycles(ctx, raw));
  warn_capacity(ctx, raw, cluster);
  return order_tree(raw, std::move(tree));
}

}  // namespace

Result<QueueTree> load_queues_string(const std::string& yaml, const std::string& name_for_errors,
                                     const Cluster& cluster, std::vector<Warning>* warnings) {
  Result<YAML::Node> root = parse_yaml(yaml, name_for_errors);
  if (!root.is_ok()) {
    return root.status();
  }
  const SpecContext ctx(name_for_errors, warnings);
  try {
    return build_tree(*root, ctx, cluster);
  } catch (const YAML::Exception& e) {  // the boundary: no spec may crash the program
    return yaml_exception_status(name_for_errors, e);
  }
}

Result<QueueTree> load_queues_file(const std::string& path, const Cluster& cluster,
                                   std::vector<Warning>* warnings) {
  Result<std::string> text = read_text_file(path);
  if (!text.is_ok()) {
    return text.status();
  }
  return load_queues_string(*text, path, cluster, warnings);
}

}  // namespace boreas::config
