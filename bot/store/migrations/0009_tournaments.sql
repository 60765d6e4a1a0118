-- Tournaments (bot/service/tournaments): the desk's settings, its participants, each round's tables
-- (each table one game), the tables' results, and an audit of every tournament action.
-- `version` is bumped by every change, as the games' is: a stale button or a double click changes nothing.

CREATE TABLE tournaments (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,  -- where the tables' threads are opened and results announced
    name              TEXT    NOT NULL,
    status            TEXT    NOT NULL
        CHECK (status IN ('registration', 'checkin', 'running', 'finished', 'cancelled')),
    registration_open INTEGER NOT NULL DEFAULT 0,
    settings          TEXT    NOT NULL,  -- JSON: maps, rounds, table size, clock, deadline, rated, final, cap, check-in
    created_by        INTEGER NOT NULL,
    version           INTEGER NOT NULL DEFAULT 0,
    created_at        TEXT    NOT NULL,
    updated_at        TEXT    NOT NULL
);

CREATE INDEX tournaments_guild ON tournaments (guild_id, status);

CREATE TABLE tournament_players (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    user_id        INTEGER NOT NULL,
    display_name   TEXT    NOT NULL,
    status         TEXT    NOT NULL
        CHECK (status IN ('registered', 'waitlisted', 'checked_in', 'active', 'dropped', 'disqualified')),
    joined         INTEGER NOT NULL,  -- join order: the waiting list is promoted in it
    joined_at      TEXT    NOT NULL,
    substitute_for INTEGER,           -- the participant whose place this one took
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

CREATE INDEX tournament_players_user ON tournament_players (user_id);

-- `attempt` counts re-pairings of the round; `seed` is the pairing's draw (audited, so it can be checked).
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,  -- 1, 2, ...; the final table (if any) is the round after the Swiss ones
    attempt       INTEGER NOT NULL,
    seed          TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('running', 'complete')),
    final         INTEGER NOT NULL,
    map           TEXT    NOT NULL,
    started_at    TEXT    NOT NULL,
    deadline      TEXT,
    completed_at  TEXT,
    PRIMARY KEY (tournament_id, round)
) WITHOUT ROWID;

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,  -- 1, 2, ... (1 = the top table)
    seats         TEXT    NOT NULL,  -- JSON: the players' user ids in seat order
    channel_id    INTEGER,           -- the table's thread, once opened
    game_id       INTEGER UNIQUE REFERENCES games (id),
    status        TEXT    NOT NULL CHECK (status IN ('pending', 'playing', 'done', 'void')),
    PRIMARY KEY (tournament_id, round, table_no),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round)
) WITHOUT ROWID;

-- Each player's result at a table; place points as an exact fraction (shared places split them).
CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,  -- who held the seat at the end
    place         INTEGER NOT NULL,  -- 1 = first; equal after the game's own tie-breaks = shared
    points_num    INTEGER NOT NULL,
    points_den    INTEGER NOT NULL CHECK (points_den > 0),
    score         INTEGER NOT NULL,
    tickets_done  INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round, table_no, user_id),
    FOREIGN KEY (tournament_id, round, table_no) REFERENCES tournament_tables (tournament_id, round, table_no)
) WITHOUT ROWID;

CREATE TABLE tournament_audit (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER,           -- who acted; NULL: the bot itself (a table's game ended)
    action        TEXT    NOT NULL,
    details       TEXT    NOT NULL,  -- JSON
    reason        TEXT    NOT NULL,
    created_at    TEXT    NOT NULL
);

CREATE INDEX tournament_audit_tournament ON tournament_audit (tournament_id, id);
