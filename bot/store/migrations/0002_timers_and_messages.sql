-- Durable timers (turn deadlines, reminders) and the messages the bot posted
-- for a game, so that both survive a restart.

CREATE TABLE timers (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER REFERENCES games (id),
    kind       TEXT    NOT NULL,
    deadline   TEXT    NOT NULL,  -- UTC ISO-8601, sorts as text
    data       TEXT    NOT NULL DEFAULT '{}',  -- JSON
    created_at TEXT    NOT NULL
);

CREATE INDEX timers_deadline ON timers (deadline);
CREATE INDEX timers_game ON timers (game_id, kind);

CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    kind       TEXT    NOT NULL,  -- what the message shows: lobby, turn, board, ...
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, kind, message_id)
) WITHOUT ROWID;

CREATE UNIQUE INDEX messages_id ON messages (message_id);
