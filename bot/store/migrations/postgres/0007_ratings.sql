-- Per-server OpenSkill ratings (twin of ../0007_ratings.sql; see the notes there).

CREATE TABLE ratings (
    guild_id     BIGINT NOT NULL,
    map          TEXT   NOT NULL,  -- '' = all maps
    user_id      BIGINT NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    games        BIGINT NOT NULL,
    wins         BIGINT NOT NULL,
    display_name TEXT   NOT NULL,
    updated_at   TEXT   COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, map, user_id)
);

CREATE INDEX ratings_member ON ratings (guild_id, user_id);

CREATE TABLE rated_games (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id),
    guild_id BIGINT NOT NULL,
    map      TEXT   NOT NULL,
    kind     TEXT   NOT NULL,  -- 'casual' or 'tournament'
    rated    INTEGER NOT NULL,
    rated_at TEXT   COLLATE "C" NOT NULL
);

CREATE TABLE rating_results (
    game_id       BIGINT NOT NULL REFERENCES rated_games (game_id),
    user_id       BIGINT NOT NULL,
    place         BIGINT NOT NULL,
    score         BIGINT NOT NULL,
    tickets_done  BIGINT NOT NULL,
    tickets_total BIGINT NOT NULL,
    mu_before     DOUBLE PRECISION NOT NULL,
    sigma_before  DOUBLE PRECISION NOT NULL,
    mu_after      DOUBLE PRECISION NOT NULL,
    sigma_after   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX rating_results_member ON rating_results (user_id);
