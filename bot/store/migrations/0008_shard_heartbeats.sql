-- One heartbeat per shard: several bot processes (shards) each note that they run, so that a process
-- restarted after an outage forgives its own shards' time down, not the others'. Row 1 stays the
-- unsharded bot's; a shard's row is 1000 * shard count + shard id (bot/store/shards.py).

CREATE TABLE heartbeat_by_key (
    id       INTEGER PRIMARY KEY,
    alive_at TEXT    NOT NULL
);
INSERT INTO heartbeat_by_key (id, alive_at) SELECT id, alive_at FROM heartbeat;
DROP TABLE heartbeat;
ALTER TABLE heartbeat_by_key RENAME TO heartbeat;
