-- Per-server OpenSkill ratings (bot/service/ratings.py). `map` is '' for the overall rating,
-- else the map's key: every rated game updates both the overall and its map's rating.

CREATE TABLE ratings (
    guild_id     INTEGER NOT NULL,
    map          TEXT    NOT NULL,  -- '' = all maps
    user_id      INTEGER NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    display_name TEXT    NOT NULL,  -- as at the member's last rated game
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (guild_id, map, user_id)
) WITHOUT ROWID;

CREATE INDEX ratings_member ON ratings (guild_id, user_id);

-- One row per game the ratings have taken into account: its key makes rating a game happen once.
-- `rated` 0: considered and left out (fewer than two members at the end).
CREATE TABLE rated_games (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id INTEGER NOT NULL,
    map      TEXT    NOT NULL,
    kind     TEXT    NOT NULL,  -- 'casual' or 'tournament'
    rated    INTEGER NOT NULL,
    rated_at TEXT    NOT NULL
);

-- Each member's result in a rated game, and the overall rating before and after it.
CREATE TABLE rating_results (
    game_id       INTEGER NOT NULL REFERENCES rated_games (game_id),
    user_id       INTEGER NOT NULL,
    place         INTEGER NOT NULL,  -- 1 = first; tied members share a place
    score         INTEGER NOT NULL,
    tickets_done  INTEGER NOT NULL,
    tickets_total INTEGER NOT NULL,
    mu_before     REAL    NOT NULL,
    sigma_before  REAL    NOT NULL,
    mu_after      REAL    NOT NULL,
    sigma_after   REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

CREATE INDEX rating_results_member ON rating_results (user_id);
