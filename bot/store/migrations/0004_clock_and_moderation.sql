-- Turn clocks, autopilot seats, moderation with its audit trail, and undo.
--
-- A game's clock settings live in games.options (JSON, key "clock"); what
-- changes while it runs lives here. Every table below is written in the same
-- transaction as the move or moderator action that changes it, together with
-- the game's timers (0002).

-- A seat the autopilot plays (handed over by a moderator). Seats of autopilot
-- players that filled empty places have negative user ids and are always
-- played by the autopilot, whatever this says.
ALTER TABLE seats ADD COLUMN autopilot INTEGER NOT NULL DEFAULT 0;

-- Who made a move: the player ('player'), the autopilot for an autopilot seat
-- ('autopilot'), or the autopilot because the player's time ran out ('timeout').
ALTER TABLE moves ADD COLUMN actor TEXT NOT NULL DEFAULT 'player';

-- The clock of a running game: set while a moderator has paused it.
CREATE TABLE game_clocks (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id),
    paused_at TEXT,     -- UTC ISO-8601; NULL when running
    paused_by INTEGER   -- the moderator who paused it
);

-- Each seat's clock: the wait it is in (if it must act), time used, timeouts.
CREATE TABLE seat_clocks (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    seat          INTEGER NOT NULL,
    wait          TEXT,                        -- which wait the seat is in; NULL when it need not act
    since         TEXT,                        -- when that wait began (moved on by pauses)
    extra_seconds REAL    NOT NULL DEFAULT 0,  -- moderator extensions of this wait
    reminded      INTEGER NOT NULL DEFAULT 0,  -- reminders already sent in this wait
    timed_out     INTEGER NOT NULL DEFAULT 0,  -- this wait ran out of time
    reserve_used  REAL    NOT NULL DEFAULT 0,  -- reserve seconds used in the whole game
    timeouts      INTEGER NOT NULL DEFAULT 0,  -- waits that ran out of time in the whole game
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- Moderator actions, and what the bot did on its own authority (timeouts:
-- moderator_user_id NULL). Never changed once written.
CREATE TABLE audit_log (
    id                INTEGER PRIMARY KEY,
    game_id           INTEGER NOT NULL REFERENCES games (id),
    moderator_user_id INTEGER,
    action            TEXT    NOT NULL,
    details           TEXT    NOT NULL DEFAULT '{}',  -- JSON
    reason            TEXT    NOT NULL DEFAULT '',
    created_at        TEXT    NOT NULL
);

CREATE INDEX audit_log_game ON audit_log (game_id, id);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- Moves a moderator took back, kept for the audit under the undo that took them.
CREATE TABLE undone_moves (
    audit_id   INTEGER NOT NULL REFERENCES audit_log (id),
    game_id    INTEGER NOT NULL REFERENCES games (id),
    idx        INTEGER NOT NULL,
    move       TEXT    NOT NULL,
    user_id    INTEGER,
    actor      TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (audit_id, idx)
) WITHOUT ROWID;

CREATE INDEX undone_moves_game ON undone_moves (game_id, idx);

-- The live move log still only grows, except that an undo may take moves off
-- its end, one at a time from the last, each once it is kept in undone_moves.
DROP TRIGGER moves_no_delete;

CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
WHEN OLD.idx != (SELECT MAX(idx) FROM moves WHERE game_id = OLD.game_id)
    OR NOT EXISTS (
        SELECT 1 FROM undone_moves u
        WHERE u.game_id = OLD.game_id AND u.idx = OLD.idx AND u.move = OLD.move AND u.created_at = OLD.created_at
    )
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only: only an undo takes moves off its end, keeping them');
END;
