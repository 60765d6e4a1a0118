"""The store's tables as SQLAlchemy Core sees them: every query of both backends is built on these.

The columns and keys are those of the schema the history makes (bot/store/revisions,
on SQLite and PostgreSQL alike; `tests/test_store_schema.py` and
`tests/test_store_history.py` compare them with both); checks, defaults, unique
constraints, indexes and triggers live in the history alone. `TABLES` is every
table in the order rows can be copied in (parents before children), the list
`migrate-store` and `backup` copy.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Double, ForeignKey, ForeignKeyConstraint, Integer, MetaData, Table, Text

metadata = MetaData()

# How the columns are declared on PostgreSQL (SQLite takes any of them as INTEGER, REAL or TEXT).
Big = BigInteger()
Int = Integer()
Real: Double[float] = Double()


guild_settings = Table(
    "guild_settings",
    metadata,
    Column("guild_id", Big, primary_key=True),
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", Big, primary_key=True, autoincrement=True),
    Column("guild_id", Big, nullable=False),
    Column("channel_id", Big, nullable=False),
    Column("host_user_id", Big, nullable=False),
    Column("map", Text, nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", Text),
    Column("cards", Text),
    Column("tickets", Text),
    Column("status", Text, nullable=False),
    Column("version", Big, nullable=False),
    Column("created_at", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", Big, ForeignKey("games.id"), primary_key=True),
    Column("user_id", Big, primary_key=True),
    Column("display_name", Text, nullable=False),
    Column("joined", Big, nullable=False),
    Column("seat", Big),
    Column("player", Text),
    Column("joined_at", Text, nullable=False),
    Column("autopilot", Int, nullable=False),
)

moves = Table(
    "moves",
    metadata,
    Column("game_id", Big, ForeignKey("games.id"), primary_key=True),
    Column("idx", Big, primary_key=True),
    Column("move", Text, nullable=False),
    Column("user_id", Big),
    Column("created_at", Text, nullable=False),
    Column("actor", Text, nullable=False),
)

snapshots = Table(
    "snapshots",
    metadata,
    Column("game_id", Big, ForeignKey("games.id"), primary_key=True),
    Column("move_count", Big, nullable=False),
    Column("data", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
)

timers = Table(
    "timers",
    metadata,
    Column("id", Big, primary_key=True, autoincrement=True),
    Column("game_id", Big, ForeignKey("games.id")),
    Column("kind", Text, nullable=False),
    Column("deadline", Text, nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", Text, nullable=False),
)

messages = Table(
    "messages",
    metadata,
    Column("game_id", Big, ForeignKey("games.id"), primary_key=True),
    Column("kind", Text, primary_key=True),
    Column("channel_id", Big, nullable=False),
    Column("message_id", Big, primary_key=True),
    Column("created_at", Text, nullable=False),
    Column("buttons", Int, nullable=False),
)

command_syncs = Table(
    "command_syncs",
    metadata,
    Column("target", Text, primary_key=True),
    Column("digest", Text, nullable=False),
    Column("synced_at", Text, nullable=False),
)

dm_refusals = Table(
    "dm_refusals",
    metadata,
    Column("user_id", Big, primary_key=True),
    Column("refused_at", Text, nullable=False),
)

game_clocks = Table(
    "game_clocks",
    metadata,
    Column("game_id", Big, ForeignKey("games.id"), primary_key=True),
    Column("paused_at", Text),
    Column("paused_by", Big),
)

seat_clocks = Table(
    "seat_clocks",
    metadata,
    Column("game_id", Big, ForeignKey("games.id"), primary_key=True),
    Column("seat", Big, primary_key=True),
    Column("wait", Text),
    Column("since", Text),
    Column("extra_seconds", Real, nullable=False),
    Column("reminded", Big, nullable=False),
    Column("timed_out", Int, nullable=False),
    Column("reserve_used", Real, nullable=False),
    Column("timeouts", Big, nullable=False),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Big, primary_key=True, autoincrement=True),
    Column("game_id", Big, ForeignKey("games.id"), nullable=False),
    Column("moderator_user_id", Big),
    Column("action", Text, nullable=False),
    Column("details", Text, nullable=False),
    Column("reason", Text, nullable=False),
    Column("created_at", Text, nullable=False),
)

undone_moves = Table(
    "undone_moves",
    metadata,
    Column("audit_id", Big, ForeignKey("audit_log.id"), primary_key=True),
    Column("game_id", Big, ForeignKey("games.id"), nullable=False),
    Column("idx", Big, primary_key=True),
    Column("move", Text, nullable=False),
    Column("user_id", Big),
    Column("actor", Text, nullable=False),
    Column("created_at", Text, nullable=False),
)

heartbeat = Table(
    "heartbeat",
    metadata,
    Column("id", Int, primary_key=True),  # the heartbeat's key (one per shard), never handed out
    Column("alive_at", Text, nullable=False),
)

member_settings = Table(
    "member_settings",
    metadata,
    Column("user_id", Big, primary_key=True),
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    Column("guild_id", Big, primary_key=True),
    Column("map", Text, primary_key=True),
    Column("user_id", Big, primary_key=True),
    Column("mu", Real, nullable=False),
    Column("sigma", Real, nullable=False),
    Column("games", Big, nullable=False),
    Column("wins", Big, nullable=False),
    Column("display_name", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
)

rated_games = Table(
    "rated_games",
    metadata,
    Column("game_id", Big, ForeignKey("games.id"), primary_key=True),
    Column("guild_id", Big, nullable=False),
    Column("map", Text, nullable=False),
    Column("kind", Text, nullable=False),
    Column("rated", Int, nullable=False),
    Column("rated_at", Text, nullable=False),
)

rating_results = Table(
    "rating_results",
    metadata,
    Column("game_id", Big, ForeignKey("rated_games.game_id"), primary_key=True),
    Column("user_id", Big, primary_key=True),
    Column("place", Big, nullable=False),
    Column("score", Big, nullable=False),
    Column("tickets_done", Big, nullable=False),
    Column("tickets_total", Big, nullable=False),
    Column("mu_before", Real, nullable=False),
    Column("sigma_before", Real, nullable=False),
    Column("mu_after", Real, nullable=False),
    Column("sigma_after", Real, nullable=False),
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Big, primary_key=True, autoincrement=True),
    Column("guild_id", Big, nullable=False),
    Column("channel_id", Big, nullable=False),
    Column("name", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("registration_open", Int, nullable=False),
    Column("settings", Text, nullable=False),
    Column("created_by", Big, nullable=False),
    Column("version", Big, nullable=False),
    Column("created_at", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
)

tournament_players = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", Big, ForeignKey("tournaments.id"), primary_key=True),
    Column("user_id", Big, primary_key=True),
    Column("display_name", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("joined", Big, nullable=False),
    Column("joined_at", Text, nullable=False),
    Column("substitute_for", Big),
)

tournament_rounds = Table(
    "tournament_rounds",
    metadata,
    Column("tournament_id", Big, ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Int, primary_key=True),
    Column("attempt", Int, nullable=False),
    Column("seed", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("final", Int, nullable=False),
    Column("map", Text, nullable=False),
    Column("started_at", Text, nullable=False),
    Column("deadline", Text),
    Column("completed_at", Text),
)

tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", Big, primary_key=True),
    Column("round", Int, primary_key=True),
    Column("table_no", Int, primary_key=True),
    Column("seats", Text, nullable=False),
    Column("channel_id", Big),
    Column("game_id", Big, ForeignKey("games.id")),
    Column("status", Text, nullable=False),
    ForeignKeyConstraint(["tournament_id", "round"], ["tournament_rounds.tournament_id", "tournament_rounds.round"]),
)

tournament_results = Table(
    "tournament_results",
    metadata,
    Column("tournament_id", Big, primary_key=True),
    Column("round", Int, primary_key=True),
    Column("table_no", Int, primary_key=True),
    Column("user_id", Big, primary_key=True),
    Column("place", Int, nullable=False),
    Column("points_num", Big, nullable=False),
    Column("points_den", Big, nullable=False),
    Column("score", Big, nullable=False),
    Column("tickets_done", Big, nullable=False),
    ForeignKeyConstraint(
        ["tournament_id", "round", "table_no"],
        ["tournament_tables.tournament_id", "tournament_tables.round", "tournament_tables.table_no"],
    ),
)

tournament_audit = Table(
    "tournament_audit",
    metadata,
    Column("id", Big, primary_key=True, autoincrement=True),
    Column("tournament_id", Big, ForeignKey("tournaments.id"), nullable=False),
    Column("user_id", Big),
    Column("action", Text, nullable=False),
    Column("details", Text, nullable=False),
    Column("reason", Text, nullable=False),
    Column("created_at", Text, nullable=False),
)

tournament_messages = Table(
    "tournament_messages",
    metadata,
    Column("tournament_id", Big, ForeignKey("tournaments.id"), primary_key=True),
    Column("channel_id", Big, nullable=False),
    Column("message_id", Big, nullable=False),
)

held_messages = Table(
    "held_messages",
    metadata,
    Column("id", Big, primary_key=True, autoincrement=True),
    Column("user_id", Big, nullable=False),
    Column("game_id", Big),
    Column("kind", Text, nullable=False),
    Column("wait", Text),
    Column("text", Text, nullable=False),
    Column("due_at", Text, nullable=False),
    Column("created_at", Text, nullable=False),
)

# each member's requests admitted lately (bot/views/ratelimit.py): `moments` a JSON list of epoch seconds,
# `last_at` the newest of them
member_rates = Table(
    "member_rates",
    metadata,
    Column("user_id", Big, primary_key=True, autoincrement=False),
    Column("moments", Text, nullable=False),
    Column("last_at", Real, nullable=False),
)

plans = Table(
    "plans",
    metadata,
    Column("game_id", Big, ForeignKey("games.id"), primary_key=True),
    Column("seat", Big, primary_key=True),
    Column("user_id", Big, nullable=False),
    Column("items", Text, nullable=False),
    Column("set_at", Text, nullable=False),
)


# Every table, parents before children: the order rows are copied in.
TABLES: tuple[Table, ...] = tuple(metadata.sorted_tables)
# The tables whose ids the database hands out (declared `autoincrement=True`; an identity column on PostgreSQL).
IDENTITY_TABLES: tuple[Table, ...] = tuple(
    t for t in TABLES if any(c.autoincrement is True for c in t.primary_key.columns)
)
