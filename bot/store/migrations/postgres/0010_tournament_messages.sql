-- The tournament's message (twin of ../0010_tournament_messages.sql; see the notes there).

CREATE TABLE tournament_messages (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id),
    channel_id    BIGINT NOT NULL,
    message_id    BIGINT NOT NULL
);
