-- The first schema: guild settings, games, seats, the move log and snapshots.
-- Times are UTC ISO-8601 texts with microseconds, so they sort as texts.

CREATE TABLE guild_settings (
    guild_id   INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    value      TEXT    NOT NULL,  -- JSON
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    host_user_id INTEGER NOT NULL,
    map          TEXT    NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}',  -- JSON: max_players, trains
    seed         TEXT,                           -- set when the game starts
    cards        TEXT,                           -- JSON: the card deck as dealt, top first
    tickets      TEXT,                           -- JSON: the ticket ids as dealt, top first
    status       TEXT    NOT NULL CHECK (status IN ('lobby', 'setup', 'playing', 'finished', 'cancelled')),
    version      INTEGER NOT NULL DEFAULT 0,     -- bumped by every change; stale buttons carry an old one
    created_at   TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL,
    CHECK ((status = 'lobby') = (seed IS NULL) OR status = 'cancelled')
);

-- One active game per channel, enforced here so that two simultaneous
-- "new game" commands cannot both succeed.
CREATE UNIQUE INDEX games_active_channel ON games (channel_id) WHERE status IN ('lobby', 'setup', 'playing');
CREATE INDEX games_status ON games (status);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    joined       INTEGER NOT NULL,  -- join order, for the lobby and the next host
    seat         INTEGER,           -- seat order, set when the game starts
    player       TEXT,              -- the unique name the engine and the record use
    joined_at    TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id),
    UNIQUE (game_id, seat),
    UNIQUE (game_id, player)
) WITHOUT ROWID;

CREATE INDEX seats_user ON seats (user_id);

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    idx        INTEGER NOT NULL,  -- 0-based position in the game record's moves
    move       TEXT    NOT NULL,  -- JSON, as in the game record
    user_id    INTEGER,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

-- The move log is the game: it only grows, one index after the other.
CREATE TRIGGER moves_in_order BEFORE INSERT ON moves
WHEN NEW.idx != COALESCE((SELECT MAX(idx) FROM moves WHERE game_id = NEW.game_id) + 1, 0)
BEGIN
    SELECT RAISE(ABORT, 'moves must be appended in order');
END;

CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;

CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;

-- The latest snapshot of each game; only a cache of the move log.
CREATE TABLE snapshots (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    move_count INTEGER NOT NULL,
    data       TEXT    NOT NULL,  -- JSON, engine/snapshot.py
    updated_at TEXT    NOT NULL
);
