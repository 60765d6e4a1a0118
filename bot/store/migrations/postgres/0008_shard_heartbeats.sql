-- One heartbeat per shard (twin of ../0008_shard_heartbeats.sql): row 1 stays the unsharded bot's;
-- a shard's row is 1000 * shard count + shard id (bot/store/shards.py).

ALTER TABLE heartbeat DROP CONSTRAINT heartbeat_id_check;
