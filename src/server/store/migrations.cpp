#include "server/store/migrations.h"

#include <array>

namespace boreas::server {
namespace {

constexpr std::array kMigrations = {
    Migration{1, "jobs and audit",
              "CREATE TABLE jobs ("
              "  id INTEGER PRIMARY KEY,"
              "  spec TEXT NOT NULL,"          // the submitted request, as JSON
              "  queue TEXT NOT NULL,"
              "  owner TEXT NOT NULL,"
              "  state TEXT NOT NULL,"
              "  allocation TEXT NOT NULL DEFAULT '',"  // "node:gpu,gpu"
              "  pid INTEGER NOT NULL DEFAULT 0,"
              "  submit_us INTEGER NOT NULL,"
              "  updated_us INTEGER NOT NULL);"
              "CREATE INDEX jobs_by_state ON jobs(state);"
              "CREATE TABLE audit ("
              "  seq INTEGER PRIMARY KEY AUTOINCREMENT,"
              "  at_us INTEGER NOT NULL,"
              "  who TEXT NOT NULL,"
              "  action TEXT NOT NULL,"
              "  target TEXT NOT NULL,"
              "  result TEXT NOT NULL);"},
    Migration{2, "tokens",
              "CREATE TABLE tokens ("
              "  id TEXT PRIMARY KEY,"    // public part of the token, used to look it up
              "  salt BLOB NOT NULL,"
              "  hash TEXT NOT NULL,"     // hex SHA-256(salt || secret)
              "  name TEXT NOT NULL,"
              "  role TEXT NOT NULL,"
              "  queues TEXT NOT NULL,"   // comma-separated
              "  created_us INTEGER NOT NULL);"},
    Migration{3, "process identity, attempts and exit details",
              "ALTER TABLE jobs ADD COLUMN proc_start INTEGER NOT NULL DEFAULT 0;"  // /proc stat 22
              "ALTER TABLE jobs ADD COLUMN start_us INTEGER NOT NULL DEFAULT 0;"
              "ALTER TABLE jobs ADD COLUMN end_us INTEGER NOT NULL DEFAULT 0;"
              "ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;"
              "ALTER TABLE jobs ADD COLUMN exit_code INTEGER;"
              "ALTER TABLE jobs ADD COLUMN reason TEXT NOT NULL DEFAULT '';"},
    Migration{4, "drained nodes",
              "CREATE TABLE node_state ("
              "  name TEXT PRIMARY KEY,"
              "  drained INTEGER NOT NULL DEFAULT 0);"},
    Migration{5, "restarts under the restart policy",
              "ALTER TABLE jobs ADD COLUMN restarts INTEGER NOT NULL DEFAULT 0;"},
    Migration{6, "preemptions and time run, which each scheduling round's state carries",
              "ALTER TABLE jobs ADD COLUMN preemptions INTEGER NOT NULL DEFAULT 0;"
              "ALTER TABLE jobs ADD COLUMN ran_us INTEGER NOT NULL DEFAULT 0;"},
    Migration{7, "tokens: Unix account, expiry, revocation; names looked up",
              "ALTER TABLE tokens ADD COLUMN unix_user TEXT NOT NULL DEFAULT '';"
              "ALTER TABLE tokens ADD COLUMN expires_us INTEGER NOT NULL DEFAULT 0;"  // 0 = never
              "ALTER TABLE tokens ADD COLUMN revoked_us INTEGER NOT NULL DEFAULT 0;"  // 0 = live
              "CREATE INDEX tokens_by_name ON tokens(name);"},
    Migration{8, "idempotency keys (a retried submit returns the first job); audit rows name the peer",
              "ALTER TABLE audit ADD COLUMN peer TEXT NOT NULL DEFAULT '';"
              "ALTER TABLE jobs ADD COLUMN idempotency_key TEXT;"
              "CREATE UNIQUE INDEX jobs_by_idempotency_key ON jobs(owner, idempotency_key)"
              "  WHERE idempotency_key IS NOT NULL;"},
    // jobs_by_state (migration 1) already finds the active jobs a restart loads and pages ended
    // jobs by id (SQLite appends the rowid, which is the id, to every index). Counting ended jobs
    // at start would read every row; triggers keep the counts instead.
    Migration{9, "jobs counted by state and queue (kept by triggers); ended jobs by end time, for retention",
              "CREATE TABLE job_counts ("
              "  state TEXT NOT NULL,"
              "  queue TEXT NOT NULL,"
              "  n INTEGER NOT NULL,"
              "  PRIMARY KEY (state, queue));"
              "INSERT INTO job_counts SELECT state, queue, COUNT(*) FROM jobs GROUP BY state, queue;"
              "CREATE TRIGGER job_counts_insert AFTER INSERT ON jobs BEGIN"
              "  INSERT INTO job_counts VALUES (new.state, new.queue, 1)"
              "    ON CONFLICT(state, queue) DO UPDATE SET n = n + 1;"
              "END;"
              "CREATE TRIGGER job_counts_update AFTER UPDATE OF state ON jobs WHEN old.state != new.state BEGIN"
              "  UPDATE job_counts SET n = n - 1 WHERE state = old.state AND queue = old.queue;"
              "  INSERT INTO job_counts VALUES (new.state, new.queue, 1)"
              "    ON CONFLICT(state, queue) DO UPDATE SET n = n + 1;"
              "END;"
              "CREATE TRIGGER job_counts_delete AFTER DELETE ON jobs BEGIN"
              "  UPDATE job_counts SET n = n - 1 WHERE state = old.state AND queue = old.queue;"
              "END;"
              "CREATE INDEX jobs_ended_by_end ON jobs(end_us)"
              "  WHERE state IN ('completed', 'failed', 'cancelled');"},
    // A Slurm node watcher resumes only the drains it made; after a restart it reads which.
    Migration{10, "who drained a node: 'operator' or 'executor' (its node watcher, e.g. Slurm had it down)",
              "ALTER TABLE node_state ADD COLUMN drained_by TEXT NOT NULL DEFAULT 'operator';"},
    // Services (server/service_manager.h); their replicas are jobs that name the service in their env.
    Migration{11, "services: replica template and autoscaler bounds, as JSON",
              "CREATE TABLE services ("
              "  name TEXT PRIMARY KEY,"
              "  owner TEXT NOT NULL,"
              "  spec TEXT NOT NULL,"  // server/service_config.h, service_to_json
              "  created_us INTEGER NOT NULL);"},
    // A share job's share of its one GPU (docs/live.md, "Sharing a GPU"), beside its allocation:
    // what a restart holds again for it. 0 = whole GPUs (every job stored before).
    Migration{12, "a share job's milli-GPU and GPU memory bytes",
              "ALTER TABLE jobs ADD COLUMN share_milli INTEGER NOT NULL DEFAULT 0;"
              "ALTER TABLE jobs ADD COLUMN share_bytes INTEGER NOT NULL DEFAULT 0;"},
};

}  // namespace

std::span<const Migration> schema_migrations() { return kMigrations; }

int32_t latest_schema_version() { return kMigrations.back().version; }

}  // namespace boreas::server
