-- When the bot was last seen running: written every minute while it runs and at a clean shutdown,
-- so that at start-up the time it was down is known (that time does not count on the turn clocks).

CREATE TABLE heartbeat (
    id       INTEGER PRIMARY KEY CHECK (id = 1),  -- one row
    alive_at TEXT    NOT NULL
);
