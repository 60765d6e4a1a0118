-- When the bot was last seen running (twin of ../0005_heartbeat.sql).

CREATE TABLE heartbeat (
    id       INTEGER PRIMARY KEY CHECK (id = 1),  -- one row
    alive_at TEXT    COLLATE "C" NOT NULL
);
