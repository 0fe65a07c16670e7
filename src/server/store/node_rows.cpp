#include "server/store/node_rows.h"

namespace boreas::server {

SqlStatement node_drain_row(const std::string& node, bool drained, const std::string& drained_by) {
  return {"INSERT INTO node_state(name, drained, drained_by) VALUES (?1, ?2, ?3) "
          "ON CONFLICT(name) DO UPDATE SET drained = ?2, drained_by = ?3",
          {node, int64_t{drained ? 1 : 0}, drained ? drained_by : std::string()}};
}

Result<std::vector<DrainedNodeRow>> read_drained_nodes(Store& store) {
  auto rows = store.query({"SELECT name, drained_by FROM node_state WHERE drained = 1", {}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  std::vector<DrainedNodeRow> out;
  for (const SqlRow& r : *rows) {
    out.push_back({as_text(r[0]), as_text(r[1])});
  }
  return out;
}

}  // namespace boreas::server
