"""The store's interface, one Protocol per part, and `Store`, which holds one of each.

A caller that needs one part holds that part (a `TimerStore`, a `SettingsStore`): `store.timers`,
`store.settings`, each the object of `bot/store/parts/` that serves it, with no layer between. `Store` is what a
backend provides. Nothing here depends on how the data is kept: the Protocols speak only in rows, writes and errors.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, Protocol

from bot.store.parts.base import Backend
from bot.store.rating_rows import RatedGame, RatingRow, RatingUpdate, ResultRow, Skill
from bot.store.rows import (
    AuditRow,
    ClockRow,
    GameRow,
    HeldRow,
    MessageRow,
    MoveRow,
    OpenGame,
    PlanRow,
    SeatRow,
    SnapshotRow,
    StoredGame,
    TimerRow,
    UndoneMoveRow,
)
from bot.store.shards import UNSHARDED_KEY, Shards
from bot.store.status import GameStatus
from bot.store.tournament_rows import (
    NewTournament,
    NewTournamentAudit,
    TableFinish,
    TableRecorded,
    TableRow,
    TournamentAuditRow,
    TournamentChange,
    TournamentData,
    TournamentRow,
    TournamentStatus,
)
from bot.store.writes import GameChange, GameStart, NewAudit, NewGame, NewMove, NewPlan


class GameStore(Protocol):
    """Games and their seats (`store.games`).

    Every write that changes a game names the version the caller saw, and the
    store refuses it with `VersionConflict` when the game has changed since:
    that is what makes a stale button or a second process harmless.
    """

    # ----- games and seats
    async def create_game(self, new: NewGame) -> GameRow:
        """A lobby with the host seated; ChannelBusy if the channel has an active game."""
        ...

    async def game(self, game_id: int) -> GameRow | None: ...

    async def stored_game(self, game_id: int) -> StoredGame | None:
        """The game, its seats, its move log and its snapshot, all from one read transaction."""
        ...

    async def active_game(self, channel_id: int) -> GameRow | None: ...

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The newest game ever opened in a channel, whatever its status."""
        ...

    async def games_of_user(self, user_id: int, statuses: Collection[GameStatus]) -> list[GameRow]: ...

    async def games_with_status(self, statuses: Collection[GameStatus]) -> list[GameRow]: ...

    async def open_games(self) -> list[OpenGame]:
        """Every game not over yet (lobby, setup, playing): map, status, server, seats (for metrics)."""
        ...

    async def seats(self, game_id: int) -> list[SeatRow]:
        """In seat order once started, in join order before."""
        ...

    async def add_seat(self, game_id: int, expected_version: int, user_id: int, display_name: str) -> int:
        """Seat a user in the lobby; the new version."""
        ...

    async def remove_seat(self, game_id: int, expected_version: int, user_id: int, new_host: int | None) -> int:
        """Unseat a user from the lobby, handing the host role to `new_host` if given; the new version."""
        ...

    async def set_status(self, game_id: int, expected_version: int, status: GameStatus) -> int: ...

    async def start_game(self, game_id: int, expected_version: int, start: GameStart) -> int:
        """Record seed, decks, seat order and the first snapshot at once; the new version."""
        ...


class HistoryStore(Protocol):
    """A game's move log and snapshot, its clock, its changes that are not moves, undo and audit trail
    (`store.history`).

    Versioned as `GameStore`'s writes; what goes with a move or a change
    (`Writes`) is written in the same transaction.
    """

    # ----- the move log and its snapshot
    async def append_move(self, game_id: int, expected_version: int, move: NewMove) -> int:
        """Log one move with its snapshot and status in one transaction; the new version."""
        ...

    async def moves(self, game_id: int) -> list[MoveRow]: ...

    async def snapshot(self, game_id: int) -> SnapshotRow | None: ...

    async def save_snapshot(self, game_id: int, expected_version: int, move_count: int, data: str) -> None:
        """Replace a damaged or outdated snapshot; the version does not change (the game did not)."""
        ...

    # ----- the clock, changes that are not moves, undo and audit
    async def clock(self, game_id: int) -> ClockRow:
        """The game's clock; a fresh one (running, no seat state) if none was written yet."""
        ...

    async def apply_change(self, game_id: int, expected_version: int, change: GameChange) -> int:
        """Apply a change that is not a move in one transaction; the version after it."""
        ...

    async def audit_log(self, game_id: int) -> list[AuditRow]:
        """The game's audit entries, oldest first."""
        ...

    async def add_audit(self, game_id: int, entry: NewAudit) -> int:
        """Store an audit entry for something that does not change the game (a moderator reading it)."""
        ...

    async def undone_moves(self, game_id: int) -> list[UndoneMoveRow]: ...

    # ----- the players' planned turns: kept unless the game moved on (no version change), cleared by `Writes`
    async def put_plan(self, game_id: int, expected_version: int, plan: NewPlan) -> None: ...
    async def plans(self, game_id: int) -> list[PlanRow]: ...
    async def planned_games(self) -> list[int]: ...
    async def clear_plan(self, game_id: int, seat: int) -> bool: ...


class TimerStore(Protocol):
    """Durable timers: deadlines that outlive a restart, each handled once."""

    async def add_timer(
        self, game_id: int | None, kind: str, deadline: datetime, data: dict[str, Any] | None = None
    ) -> TimerRow: ...

    async def timers(self, game_id: int | None = None) -> list[TimerRow]:
        """All timers (of one game if given), soonest first."""
        ...

    async def due_timers(self, now: datetime, shards: Shards | None = None) -> list[TimerRow]:
        """The timers due at `now`, soonest first: every one, or those the process running `shards` fires."""
        ...

    async def next_timer(self, shards: Shards | None = None) -> TimerRow | None:
        """The timer due soonest (of those the process running `shards` fires)."""
        ...

    async def delete_timer(self, timer_id: int) -> bool: ...

    async def delete_timers(self, game_id: int, kind: str | None = None) -> int: ...

    async def timer(self, timer_id: int) -> TimerRow | None: ...

    async def postpone_timer(self, timer_id: int, deadline: datetime) -> bool:
        """Move a timer to a later deadline (after its handling failed); False if it is gone."""
        ...


class MessageStore(Protocol):
    """The channel messages the bot posted for a game (and each tournament's message), and the members who refuse
    direct messages."""

    async def add_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, buttons: bool = False
    ) -> None:
        """Record a message posted for a game under `kind` (the live table: under each stage it shows); `buttons`:
        posted with buttons (marked until they go)."""
        ...

    async def messages(self, game_id: int, kind: str | None = None) -> list[MessageRow]: ...

    async def delete_message(self, message_id: int) -> bool: ...  # under every kind; False: not recorded

    async def games_with_buttons(self) -> list[GameRow]:
        """The games (any status) with a message marked as possibly still carrying buttons."""
        ...

    async def clear_buttons(self, message_id: int) -> bool:
        """The message's buttons are off (or given up on): clear its mark (every kind); False if it had none."""
        ...

    async def tournament_message(self, tournament_id: int) -> tuple[int, int] | None:
        """The channel and message id of a tournament's message, if one was kept."""
        ...

    async def set_tournament_message(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        """Keep a tournament's message (in place of the one kept before)."""
        ...

    async def dm_refused(self, user_id: int) -> bool:
        """Has Discord refused a direct message to this user (error 50007)?"""
        ...

    async def set_dm_refused(self, user_id: int, refused: bool) -> None: ...

    async def hold_message(
        self, user_id: int, game_id: int | None, kind: str, wait: str | None, text: str, due_at: datetime
    ) -> int:
        """Keep a direct message to send at `due_at` (quiet hours, a note due once a turn has waited); its id."""
        ...

    async def due_held_messages(self, now: datetime, limit: int = 100) -> list[HeldRow]:
        """The held messages due at `now`, oldest due first."""
        ...

    async def held_messages(self, user_id: int) -> list[HeldRow]:
        """A member's held messages, oldest due first."""
        ...

    async def take_held_message(self, held_id: int) -> bool:
        """Delete a held message as it is sent (or dropped); False if it was taken already (by another process)."""
        ...


class SettingsStore(Protocol):
    """Server and member settings, the fingerprint of the slash commands last synced, and the bot's heartbeat."""

    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        """Set one JSON-able setting; None removes it."""
        ...

    async def member_settings(self, user_id: int) -> dict[str, Any]:
        """A member's own settings (the same in every server), by key; JSON values."""
        ...

    async def settings_of_members(self, user_ids: Collection[int]) -> dict[int, dict[str, Any]]:
        """`member_settings` of several members in one read: each of `user_ids` (none left out), by key."""
        ...

    async def set_member_setting(self, user_id: int, key: str, value: Any) -> None:
        """Set one of a member's JSON-able settings; None removes it (back to the default)."""
        ...

    async def command_digest(self, target: str) -> str | None:
        """The fingerprint of the slash commands last synced to `target` ('global' or 'guild:<id>')."""
        ...

    async def set_command_digest(self, target: str, digest: str) -> None: ...

    async def alive_at(self, key: int = UNSHARDED_KEY) -> datetime | None:
        """When the running bot last wrote its heartbeat `key` (one per shard, `shards.heartbeat_key`; the
        unsharded bot's is 1); without one of that key, the newest of any (None: never)."""
        ...

    async def set_alive_at(self, moment: datetime, key: int = UNSHARDED_KEY) -> None:
        """Write the heartbeat `key`: the bot (or that shard's process) is running at `moment`."""
        ...


class RatingStore(Protocol):
    """Each server's ratings (overall and per map) and the rated games' results."""

    async def record_rating(self, game: RatedGame, update: RatingUpdate, start: Skill) -> bool:
        """Rate the game once, in one transaction; False (nothing changed) if it was already considered."""
        ...

    async def is_rated(self, game_id: int) -> bool: ...

    async def ratings_page(self, guild_id: int, map_key: str, offset: int, limit: int) -> list[RatingRow]: ...

    async def ratings_count(self, guild_id: int, map_key: str) -> int: ...

    async def rating_rank(self, guild_id: int, map_key: str, user_id: int) -> int | None: ...

    async def member_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]: ...

    async def member_results(self, guild_id: int, user_id: int) -> list[ResultRow]: ...

    async def finished_unrated_since_setting(self, setting_key: str) -> list[int]: ...


class TournamentStore(Protocol):
    """Tournaments: settings, participants, rounds and their tables, results, audit.

    A change of the tournament names the version the caller saw (VersionConflict
    if it changed since); a table's channel, game and result are each set once.
    UnknownTournament for an id no tournament has.
    """

    async def create_tournament(self, new: NewTournament) -> TournamentRow:
        """A new tournament, in registration (closed), at version 0."""
        ...

    async def tournament(self, tournament_id: int) -> TournamentRow | None: ...

    async def tournaments_of_guild(self, guild_id: int) -> list[TournamentRow]:
        """The server's tournaments, newest first."""
        ...

    async def recent_tournaments(
        self, guild_id: int, statuses: Collection[TournamentStatus], limit: int
    ) -> list[TournamentRow]:
        """The server's newest tournaments in one of `statuses`, newest first, at most `limit` (one query)."""
        ...

    async def tournament_data(self, tournament_id: int) -> TournamentData | None:
        """The tournament and everything under it, from one read transaction."""
        ...

    async def change_tournament(self, tournament_id: int, expected_version: int, change: TournamentChange) -> int:
        """Apply the change in one transaction if the version is still `expected_version` (its timers, of no game,
        written in it too); the new version."""
        ...

    async def set_table_channel(self, tournament_id: int, round_no: int, table_no: int, channel_id: int) -> bool:
        """Note the table's thread once; False if it had one."""
        ...

    async def set_table_game(self, tournament_id: int, round_no: int, table_no: int, game_id: int) -> bool:
        """Note the table's game once (it is playing then); False if it had one."""
        ...

    async def table_of_game(self, game_id: int) -> TableRow | None:
        """The tournament table a game is played at, if any."""
        ...

    async def record_table_result(
        self,
        tournament_id: int,
        round_no: int,
        table_no: int,
        finishes: Sequence[TableFinish],
        audit: NewTournamentAudit,
        last_round: bool,
    ) -> TableRecorded:
        """Record a table's result once (none: void), completing its round with the last table, in one transaction;
        the tournament is finished then if `last_round`."""
        ...

    async def tournament_audit(self, tournament_id: int) -> list[TournamentAuditRow]:
        """The tournament's audit entries, oldest first."""
        ...


class RateStore(Protocol):
    """Each member's requests admitted lately, one count for every process on the database (wall-clock seconds)."""

    async def admit_request(self, user_id: int, now: float, limit: int, window: float) -> float | None:
        """Count the request at `now` if fewer than `limit` were counted in the `window` seconds before, in one
        transaction (processes asking together take turns): None; else, counting nothing, the seconds to wait."""
        ...

    async def forget_rates(self, before: float) -> int:
        """Delete the members' rows whose newest request is at `before` or earlier; how many."""
        ...


class Store(Protocol):
    """Everything the bot keeps between restarts: one object per part, each serving its Protocol."""

    @property
    def games(self) -> GameStore: ...

    @property
    def history(self) -> HistoryStore: ...

    @property
    def timers(self) -> TimerStore: ...

    @property
    def messages(self) -> MessageStore: ...

    @property
    def settings(self) -> SettingsStore: ...

    @property
    def ratings(self) -> RatingStore: ...

    @property
    def tournaments(self) -> TournamentStore: ...

    @property
    def rates(self) -> RateStore: ...

    @property
    def backend(self) -> Backend:
        """What runs the queries of `bot.store.query`: for work on the whole database (copies, backups, checks)."""
        ...

    async def close(self) -> None: ...
