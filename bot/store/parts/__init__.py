"""The store's parts, each written once for both backends on the queries of `bot.store.query`.

`base.Backend` is what a part needs of a backend (run a query, or a unit of
work as a write or a consistent read); `bot.store.sqlite.core.SqliteCore` and
`bot.store.postgres.core.PostgresCore` each provide it. `games`, `history`,
`timers`, `messages`, `settings`, `ratings`, `tournaments` and `rates` each hold a
class serving one part of the `Store` interface, given the backend
(`versioned` holds what a game's write transaction does besides its own
statement); `Parts` makes them and answers the `Store` interface by handing
each call to its part. Each store is `Parts` on its backend's core.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from bot.store.parts.base import Backend
from bot.store.parts.games import Games
from bot.store.parts.history import History
from bot.store.parts.messages import Messages
from bot.store.parts.rates import Rates
from bot.store.parts.ratings import Ratings
from bot.store.parts.settings import Settings
from bot.store.parts.timers import Timers
from bot.store.parts.tournaments import Tournaments
from bot.store.rating_rows import RatedGame, RatingRow, RatingUpdate, ResultRow, Skill
from bot.store.rows import (
    AuditRow,
    ClockRow,
    GameRow,
    HeldRow,
    MessageRow,
    MoveRow,
    OpenGame,
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
from bot.store.writes import GameChange, GameStart, NewAudit, NewGame, NewMove


class Parts:
    """Every part of the `Store` interface on one backend: each call goes to the part that serves it."""

    def __init__(self, backend: Backend) -> None:
        self._games = Games(backend)
        self._history = History(backend)
        self._timers = Timers(backend)
        self._messages = Messages(backend)
        self._settings = Settings(backend)
        self._ratings = Ratings(backend)
        self._tournaments = Tournaments(backend)
        self._rates = Rates(backend)
        self.backend = backend  # its `observer` hears how the writes go (bot/store/observer.py)

    async def create_game(self, new: NewGame) -> GameRow:
        return await self._games.create_game(new)

    async def game(self, game_id: int) -> GameRow | None:
        return await self._games.game(game_id)

    async def stored_game(self, game_id: int) -> StoredGame | None:
        return await self._games.stored_game(game_id)

    async def active_game(self, channel_id: int) -> GameRow | None:
        return await self._games.active_game(channel_id)

    async def latest_game(self, channel_id: int) -> GameRow | None:
        return await self._games.latest_game(channel_id)

    async def games_of_user(self, user_id: int, statuses: Collection[GameStatus]) -> list[GameRow]:
        return await self._games.games_of_user(user_id, statuses)

    async def games_with_status(self, statuses: Collection[GameStatus]) -> list[GameRow]:
        return await self._games.games_with_status(statuses)

    async def open_games(self) -> list[OpenGame]:
        return await self._games.open_games()

    async def seats(self, game_id: int) -> list[SeatRow]:
        return await self._games.seats(game_id)

    async def add_seat(self, game_id: int, expected_version: int, user_id: int, display_name: str) -> int:
        return await self._games.add_seat(game_id, expected_version, user_id, display_name)

    async def remove_seat(self, game_id: int, expected_version: int, user_id: int, new_host: int | None) -> int:
        return await self._games.remove_seat(game_id, expected_version, user_id, new_host)

    async def set_status(self, game_id: int, expected_version: int, status: GameStatus) -> int:
        return await self._games.set_status(game_id, expected_version, status)

    async def start_game(self, game_id: int, expected_version: int, start: GameStart) -> int:
        return await self._games.start_game(game_id, expected_version, start)

    async def append_move(self, game_id: int, expected_version: int, move: NewMove) -> int:
        return await self._history.append_move(game_id, expected_version, move)

    async def moves(self, game_id: int) -> list[MoveRow]:
        return await self._history.moves(game_id)

    async def snapshot(self, game_id: int) -> SnapshotRow | None:
        return await self._history.snapshot(game_id)

    async def save_snapshot(self, game_id: int, expected_version: int, move_count: int, data: str) -> None:
        return await self._history.save_snapshot(game_id, expected_version, move_count, data)

    async def clock(self, game_id: int) -> ClockRow:
        return await self._history.clock(game_id)

    async def apply_change(self, game_id: int, expected_version: int, change: GameChange) -> int:
        return await self._history.apply_change(game_id, expected_version, change)

    async def audit_log(self, game_id: int) -> list[AuditRow]:
        return await self._history.audit_log(game_id)

    async def add_audit(self, game_id: int, entry: NewAudit) -> int:
        return await self._history.add_audit(game_id, entry)

    async def undone_moves(self, game_id: int) -> list[UndoneMoveRow]:
        return await self._history.undone_moves(game_id)

    async def add_timer(
        self, game_id: int | None, kind: str, deadline: datetime, data: dict[str, Any] | None = None
    ) -> TimerRow:
        return await self._timers.add_timer(game_id, kind, deadline, data)

    async def timers(self, game_id: int | None = None) -> list[TimerRow]:
        return await self._timers.timers(game_id)

    async def due_timers(self, now: datetime, shards: Shards | None = None) -> list[TimerRow]:
        return await self._timers.due_timers(now, shards)

    async def next_timer(self, shards: Shards | None = None) -> TimerRow | None:
        return await self._timers.next_timer(shards)

    async def delete_timer(self, timer_id: int) -> bool:
        return await self._timers.delete_timer(timer_id)

    async def delete_timers(self, game_id: int, kind: str | None = None) -> int:
        return await self._timers.delete_timers(game_id, kind)

    async def timer(self, timer_id: int) -> TimerRow | None:
        return await self._timers.timer(timer_id)

    async def postpone_timer(self, timer_id: int, deadline: datetime) -> bool:
        return await self._timers.postpone_timer(timer_id, deadline)

    async def add_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, buttons: bool = False
    ) -> None:
        return await self._messages.add_message(game_id, kind, channel_id, message_id, buttons)

    async def messages(self, game_id: int, kind: str | None = None) -> list[MessageRow]:
        return await self._messages.messages(game_id, kind)

    async def delete_message(self, message_id: int) -> bool:
        return await self._messages.delete_message(message_id)

    async def games_with_buttons(self) -> list[GameRow]:
        return await self._messages.games_with_buttons()

    async def clear_buttons(self, message_id: int) -> bool:
        return await self._messages.clear_buttons(message_id)

    async def tournament_message(self, tournament_id: int) -> tuple[int, int] | None:
        return await self._messages.tournament_message(tournament_id)

    async def set_tournament_message(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        return await self._messages.set_tournament_message(tournament_id, channel_id, message_id)

    async def dm_refused(self, user_id: int) -> bool:
        return await self._messages.dm_refused(user_id)

    async def set_dm_refused(self, user_id: int, refused: bool) -> None:
        return await self._messages.set_dm_refused(user_id, refused)

    async def hold_message(
        self, user_id: int, game_id: int | None, kind: str, wait: str | None, text: str, due_at: datetime
    ) -> int:
        return await self._messages.hold_message(user_id, game_id, kind, wait, text, due_at)

    async def due_held_messages(self, now: datetime, limit: int = 100) -> list[HeldRow]:
        return await self._messages.due_held_messages(now, limit)

    async def held_messages(self, user_id: int) -> list[HeldRow]:
        return await self._messages.held_messages(user_id)

    async def take_held_message(self, held_id: int) -> bool:
        return await self._messages.take_held_message(held_id)

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return await self._settings.guild_settings(guild_id)

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        return await self._settings.set_guild_setting(guild_id, key, value)

    async def member_settings(self, user_id: int) -> dict[str, Any]:
        return await self._settings.member_settings(user_id)

    async def settings_of_members(self, user_ids: Collection[int]) -> dict[int, dict[str, Any]]:
        return await self._settings.settings_of_members(user_ids)

    async def set_member_setting(self, user_id: int, key: str, value: Any) -> None:
        return await self._settings.set_member_setting(user_id, key, value)

    async def command_digest(self, target: str) -> str | None:
        return await self._settings.command_digest(target)

    async def set_command_digest(self, target: str, digest: str) -> None:
        return await self._settings.set_command_digest(target, digest)

    async def alive_at(self, key: int = UNSHARDED_KEY) -> datetime | None:
        return await self._settings.alive_at(key)

    async def set_alive_at(self, moment: datetime, key: int = UNSHARDED_KEY) -> None:
        return await self._settings.set_alive_at(moment, key)

    async def record_rating(self, game: RatedGame, update: RatingUpdate, start: Skill) -> bool:
        return await self._ratings.record_rating(game, update, start)

    async def is_rated(self, game_id: int) -> bool:
        return await self._ratings.is_rated(game_id)

    async def ratings_page(self, guild_id: int, map_key: str, offset: int, limit: int) -> list[RatingRow]:
        return await self._ratings.ratings_page(guild_id, map_key, offset, limit)

    async def ratings_count(self, guild_id: int, map_key: str) -> int:
        return await self._ratings.ratings_count(guild_id, map_key)

    async def rating_rank(self, guild_id: int, map_key: str, user_id: int) -> int | None:
        return await self._ratings.rating_rank(guild_id, map_key, user_id)

    async def member_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        return await self._ratings.member_ratings(guild_id, user_id)

    async def member_results(self, guild_id: int, user_id: int) -> list[ResultRow]:
        return await self._ratings.member_results(guild_id, user_id)

    async def finished_unrated_since_setting(self, setting_key: str) -> list[int]:
        return await self._ratings.finished_unrated_since_setting(setting_key)

    async def create_tournament(self, new: NewTournament) -> TournamentRow:
        return await self._tournaments.create_tournament(new)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        return await self._tournaments.tournament(tournament_id)

    async def tournaments_of_guild(self, guild_id: int) -> list[TournamentRow]:
        return await self._tournaments.tournaments_of_guild(guild_id)

    async def recent_tournaments(
        self, guild_id: int, statuses: Collection[TournamentStatus], limit: int
    ) -> list[TournamentRow]:
        return await self._tournaments.recent_tournaments(guild_id, statuses, limit)

    async def tournament_data(self, tournament_id: int) -> TournamentData | None:
        return await self._tournaments.tournament_data(tournament_id)

    async def change_tournament(self, tournament_id: int, expected_version: int, change: TournamentChange) -> int:
        return await self._tournaments.change_tournament(tournament_id, expected_version, change)

    async def set_table_channel(self, tournament_id: int, round_no: int, table_no: int, channel_id: int) -> bool:
        return await self._tournaments.set_table_channel(tournament_id, round_no, table_no, channel_id)

    async def set_table_game(self, tournament_id: int, round_no: int, table_no: int, game_id: int) -> bool:
        return await self._tournaments.set_table_game(tournament_id, round_no, table_no, game_id)

    async def table_of_game(self, game_id: int) -> TableRow | None:
        return await self._tournaments.table_of_game(game_id)

    async def record_table_result(
        self,
        tournament_id: int,
        round_no: int,
        table_no: int,
        finishes: Sequence[TableFinish],
        audit: NewTournamentAudit,
        last_round: bool,
    ) -> TableRecorded:
        return await self._tournaments.record_table_result(
            tournament_id, round_no, table_no, finishes, audit, last_round
        )

    async def tournament_audit(self, tournament_id: int) -> list[TournamentAuditRow]:
        return await self._tournaments.tournament_audit(tournament_id)

    async def admit_request(self, user_id: int, now: float, limit: int, window: float) -> float | None:
        return await self._rates.admit_request(user_id, now, limit, window)

    async def forget_rates(self, before: float) -> int:
        return await self._rates.forget_rates(before)


__all__ = ["Parts"]
