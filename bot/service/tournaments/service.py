"""The tournament desk: create and configure, registration, check-in, rounds, results, moderation, export.

A part of the game service (mixed into `GameService` like the other parts). It
writes no sentences: everything it returns is typed data (models.py) and every
refusal a `ServiceError` with a `Why`.

- **Versions.** Every change of a tournament is one store transaction checked
  against the version the service read, under the tournament's own lock: a
  double click starts a round once, and a stale button is refused
  (`TournamentChanged`). The tournament is written first and the games after:
  a crash in between leaves the tournament saying what should be, and the next
  call finishes it (a table paired but not open yet is opened by the next
  `start_round`; a game that ended without its table recorded is recorded by
  the next call that reads the tournament, `catch_up`).
- **Tables.** Each table is one game, opened through the lobby calls (create,
  join, start with the drawn seat order) in a channel the front opens for it
  (`open_channel`: a thread in the tournament's channel). Participants listed in
  `settings.autopilot` and dropped ones get their seat played by the autopilot.
- **Results.** When a table's game ends (by the rules: `_finished`; by a
  moderator: `_ended_by_moderator`) its result is recorded once: places after
  the game's own tie-breaks (ratings.placings), place points shared on ties
  (standings.place_points); the game is rated as a tournament game if the
  tournament is rated; the round is complete with its last table and the
  tournament finished with its last round. An abandoned game voids its table.
- **Substitutes** take over the seat (as `/ttrmod replace`) and the standing
  of the player they replace (results, meetings and first seats).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import random
import zipfile
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from datetime import timedelta
from enum import StrEnum
from fractions import Fraction
from functools import partial
from typing import Any

from bot.service.checks import MAX_ID, check_flag, check_id, check_name, clean_reason
from bot.service.errors import (
    IdKind,
    InvalidInput,
    NotAPlayer,
    NotFound,
    ServiceError,
    TournamentChanged,
    Why,
    WrongState,
)
from bot.service.loading import LiveGame
from bot.service.lobby import LobbyService
from bot.service.models import GameInfo
from bot.service.moderation import ModerationService
from bot.service.ratings import RatingsService, placings
from bot.service.record import record_of
from bot.service.tournaments.models import (
    MAX_NAME,
    Participant,
    Round,
    RoundStarted,
    StandingLine,
    Table,
    TableFinishInfo,
    TablePlan,
    TableResult,
    TournamentAction,
    TournamentInfo,
    TournamentSettings,
)
from bot.service.tournaments.pairing import History, PairingError, pair_round
from bot.service.tournaments.standings import Finish, place_points, standings
from bot.service.tournaments.standings import TableResult as StandingTable
from bot.store import GameStatus, StoreError, UnknownTournament, VersionConflict
from bot.store.tournament_rows import (
    NewRound,
    NewTournament,
    NewTournamentAudit,
    ParticipantRow,
    ParticipantStatus,
    ParticipantWrite,
    RoundStatus,
    TableFinish,
    TableRow,
    TableStatus,
    TournamentChange,
    TournamentData,
    TournamentStatus,
)
from engine import Game
from maps import load_board

log = logging.getLogger(__name__)

# the front opens a table's thread and says its channel id
OpenChannel = Callable[[TablePlan], Awaitable[int]]

PLAYING_STATUSES = (ParticipantStatus.ACTIVE,)
REGISTERED = (ParticipantStatus.REGISTERED, ParticipantStatus.CHECKED_IN)
BEFORE_START = (TournamentStatus.REGISTRATION, TournamentStatus.CHECKIN)


class TourAction(StrEnum):
    """An entry of a tournament's audit."""

    CREATE = "create"
    CONFIGURE = "configure"
    OPEN_REGISTRATION = "open_registration"
    CLOSE_REGISTRATION = "close_registration"
    JOIN = "join"
    LEAVE = "leave"
    OPEN_CHECKIN = "open_checkin"
    CHECK_IN = "check_in"
    START_ROUND = "start_round"
    REPAIR = "repair"
    TABLE_RESULT = "table_result"
    SUBSTITUTE = "substitute"
    DROP = "drop"
    DISQUALIFY = "disqualify"
    ADJUDICATE = "adjudicate"
    CANCEL = "cancel"


def _decimal(value: Fraction, places: int = 3) -> str:
    """A fraction for a CSV cell: exact when it ends within `places` decimals, else rounded."""
    text = f"{float(value):.{places}f}".rstrip("0").rstrip(".")
    return text or "0"


class TournamentService(RatingsService, LobbyService, ModerationService):
    """Tournaments of many tables: each table one game of this service."""

    _tour_locks: dict[int, asyncio.Lock]

    def _tour_lock(self, tournament_id: int) -> asyncio.Lock:
        try:
            locks = self._tour_locks
        except AttributeError:
            locks = self._tour_locks = {}
        return locks.setdefault(tournament_id, asyncio.Lock())

    # ----- reading ------------------------------------------------------------------

    async def _data(self, tournament_id: int) -> TournamentData:
        tournament_id = _tournament_id(tournament_id)
        data = await self.store.tournament_data(tournament_id)
        if data is None:
            raise NotFound(Why.NO_SUCH_TOURNAMENT, {"tournament_id": tournament_id})
        return data

    def _info_of(self, data: TournamentData) -> TournamentInfo:
        t = data.tournament
        settings = TournamentSettings.from_json(t.settings)
        names = {p.user_id: p.display_name for p in data.participants}
        participants = tuple(
            Participant(p.user_id, p.display_name, p.status, p.joined, p.joined_at, p.substitute_for)
            for p in data.participants
        )
        rounds = []
        for r in data.rounds:
            tables = tuple(
                Table(
                    r.round,
                    row.table_no,
                    r.map,
                    row.seats,
                    tuple(names.get(u, "") for u in row.seats),
                    row.channel_id,
                    row.game_id,
                    row.status,
                )
                for row in data.tables
                if row.round == r.round
            )
            rounds.append(
                Round(
                    r.round,
                    r.attempt,
                    r.final,
                    r.map,
                    r.status,
                    r.seed,
                    r.started_at,
                    r.deadline,
                    r.completed_at,
                    tables,
                )
            )
        return TournamentInfo(
            t.id,
            t.guild_id,
            t.channel_id,
            t.name,
            t.status,
            t.registration_open,
            settings,
            t.version,
            t.created_by,
            participants,
            tuple(rounds),
        )

    async def tournament(self, tournament_id: int) -> TournamentInfo:
        """The tournament as it stands (any game that ended meanwhile recorded first)."""
        await self.catch_up(tournament_id)
        return self._info_of(await self._data(tournament_id))

    async def tournaments(self, guild_id: int) -> list[TournamentInfo]:
        """The server's tournaments, newest first."""
        guild_id = check_id(guild_id, IdKind.SERVER)
        out = []
        for row in await self.store.tournaments_of_guild(guild_id):
            data = await self.store.tournament_data(row.id)
            if data is not None:
                out.append(self._info_of(data))
        return out

    async def tournament_audit(self, tournament_id: int) -> list[dict[str, Any]]:
        """Every tournament action, oldest first: who, what, details, reason, when."""
        await self._data(tournament_id)
        return [
            {
                "id": a.id,
                "user_id": a.user_id,
                "action": a.action,
                "details": a.details,
                "reason": a.reason,
                "at": a.created_at.isoformat(),
            }
            for a in await self.store.tournament_audit(tournament_id)
        ]

    # ----- writing ------------------------------------------------------------------

    async def _tour_change(self, data: TournamentData, change: TournamentChange) -> int:
        tid = data.tournament.id
        try:
            return await self.store.change_tournament(tid, data.tournament.version, change)
        except VersionConflict:
            raise TournamentChanged(tid) from None
        except UnknownTournament:
            raise NotFound(Why.NO_SUCH_TOURNAMENT, {"tournament_id": tid}) from None

    def _audit(
        self, user_id: int | None, action: TourAction, details: dict[str, Any], reason: str = ""
    ) -> NewTournamentAudit:
        return NewTournamentAudit(user_id, action.value, details, reason, self.now())

    async def _locked_tour(
        self, tournament_id: int, expected_version: int | None, work: Callable[[TournamentData], Awaitable[Any]]
    ) -> Any:
        """Run `work` on the tournament under its lock, after recording games that ended meanwhile."""
        tournament_id = _tournament_id(tournament_id)
        if expected_version is not None and (
            isinstance(expected_version, bool) or not isinstance(expected_version, int)
        ):
            raise InvalidInput(Why.BAD_VERSION, {"value": expected_version})
        async with self._tour_lock(tournament_id):
            await self._catch_up(await self._data(tournament_id))
            data = await self._data(tournament_id)
            if expected_version is not None and expected_version != data.tournament.version:
                raise TournamentChanged(tournament_id)
            return await work(data)

    async def _action(
        self, tournament_id: int, action: TourAction, user_id: int | None, **extra: Any
    ) -> TournamentAction:
        info = self._info_of(await self._data(tournament_id))
        participant = None if user_id is None else info.participant(user_id)
        return TournamentAction(
            info, action.value, user_id, status=None if participant is None else participant.status, **extra
        )

    # ----- create and configure -------------------------------------------------------

    async def create_tournament(
        self,
        guild_id: int,
        channel_id: int,
        moderator_user_id: int,
        name: str,
        settings: TournamentSettings,
        reason: str = "",
    ) -> TournamentInfo:
        """A new tournament in the channel, in registration (closed until `open_registration`)."""
        guild_id = check_id(guild_id, IdKind.SERVER)
        channel_id = check_id(channel_id, IdKind.CHANNEL)
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        title = _tournament_name(name)
        why = clean_reason(reason)
        if not isinstance(settings, TournamentSettings):
            raise InvalidInput(Why.BAD_MAP_LIST, {"rounds": None, "value": type(settings).__name__})
        audit = self._audit(moderator_user_id, TourAction.CREATE, {"name": title, "settings": settings.to_json()}, why)
        row = await self.store.create_tournament(
            NewTournament(guild_id, channel_id, title, moderator_user_id, settings.to_json(), audit)
        )
        return self._info_of(await self._data(row.id))

    async def configure_tournament(
        self,
        tournament_id: int,
        moderator_user_id: int,
        settings: TournamentSettings,
        *,
        name: str | None = None,
        expected_version: int | None = None,
        reason: str = "",
    ) -> TournamentInfo:
        """Change the settings (and name) before round 1."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)
        title = None if name is None else _tournament_name(name)
        if not isinstance(settings, TournamentSettings):
            raise InvalidInput(Why.BAD_MAP_LIST, {"rounds": None, "value": type(settings).__name__})

        async def work(data: TournamentData) -> TournamentInfo:
            _require(data, BEFORE_START)
            details: dict[str, Any] = {"settings": settings.to_json()}
            if title is not None:
                details["name"] = title
            audit = self._audit(moderator_user_id, TourAction.CONFIGURE, details, why)
            change = TournamentChange(settings=settings.to_json(), name=title, audit=[audit])
            await self._tour_change(data, change)
            return self._info_of(await self._data(data.tournament.id))

        result: TournamentInfo = await self._locked_tour(tournament_id, expected_version, work)
        return result

    # ----- registration and check-in ------------------------------------------------

    async def set_registration(
        self, tournament_id: int, moderator_user_id: int, open_: bool, reason: str = ""
    ) -> TournamentInfo:
        """Open (`open_` True) or close registration, before round 1."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        check_flag(open_, "open")
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentInfo:
            _require(data, (TournamentStatus.REGISTRATION,))
            if data.tournament.registration_open == open_:
                raise WrongState(Why.REGISTRATION_ALREADY, {"tournament_id": data.tournament.id, "open": open_})
            action = TourAction.OPEN_REGISTRATION if open_ else TourAction.CLOSE_REGISTRATION
            change = TournamentChange(registration_open=open_, audit=[self._audit(moderator_user_id, action, {}, why)])
            await self._tour_change(data, change)
            return self._info_of(await self._data(data.tournament.id))

        result: TournamentInfo = await self._locked_tour(tournament_id, None, work)
        return result

    async def open_registration(self, tournament_id: int, moderator_user_id: int, reason: str = "") -> TournamentInfo:
        return await self.set_registration(tournament_id, moderator_user_id, True, reason)

    async def close_registration(self, tournament_id: int, moderator_user_id: int, reason: str = "") -> TournamentInfo:
        return await self.set_registration(tournament_id, moderator_user_id, False, reason)

    async def join_tournament(self, tournament_id: int, user_id: int, display_name: str) -> TournamentAction:
        """Register while registration is open; past the cap, on the waiting list (`status` says which)."""
        user_id = check_id(user_id, IdKind.USER)
        name = check_name(display_name)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            _require(data, (TournamentStatus.REGISTRATION,))
            if not t.registration_open:
                raise WrongState(Why.REGISTRATION_CLOSED, {"tournament_id": t.id})
            found = _participant(data, user_id)
            if found is not None:
                raise WrongState(Why.ALREADY_REGISTERED, {"tournament_id": t.id, "status": found.status})
            settings = TournamentSettings.from_json(t.settings)
            registered = sum(1 for p in data.participants if p.status in REGISTERED)
            full = settings.cap is not None and registered >= settings.cap
            status = ParticipantStatus.WAITLISTED if full else ParticipantStatus.REGISTERED
            audit = self._audit(user_id, TourAction.JOIN, {"user_id": user_id, "name": name, "status": status.value})
            await self._tour_change(
                data, TournamentChange(participants=[ParticipantWrite(user_id, name, status)], audit=[audit])
            )
            return await self._action(t.id, TourAction.JOIN, user_id)

        result: TournamentAction = await self._locked_tour(tournament_id, None, work)
        return result

    async def leave_tournament(self, tournament_id: int, user_id: int) -> TournamentAction:
        """Leave before round 1 (registration or check-in); the first on the waiting list gets the place."""
        user_id = check_id(user_id, IdKind.USER)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            _require(data, BEFORE_START)
            found = _participant(data, user_id)
            if found is None:
                raise NotAPlayer(Why.NOT_REGISTERED, {"tournament_id": t.id})
            writes = [ParticipantWrite(user_id, found.display_name, found.status, remove=True)]
            promoted = None
            if found.status in REGISTERED:
                waiting = [p for p in data.participants if p.status is ParticipantStatus.WAITLISTED]
                if waiting:
                    promoted = waiting[0].user_id
                    writes.append(ParticipantWrite(promoted, waiting[0].display_name, ParticipantStatus.REGISTERED))
            details = {"user_id": user_id, "name": found.display_name, "was": found.status.value, "promoted": promoted}
            audit = self._audit(user_id, TourAction.LEAVE, details)
            await self._tour_change(data, TournamentChange(participants=writes, audit=[audit]))
            return await self._action(t.id, TourAction.LEAVE, user_id, promoted=promoted)

        result: TournamentAction = await self._locked_tour(tournament_id, None, work)
        return result

    async def open_checkin(self, tournament_id: int, moderator_user_id: int, reason: str = "") -> TournamentInfo:
        """Close registration and open the check-in window (a tournament set up with one)."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentInfo:
            t = data.tournament
            _require(data, (TournamentStatus.REGISTRATION,))
            if not TournamentSettings.from_json(t.settings).checkin:
                raise WrongState(Why.NO_CHECKIN, {"tournament_id": t.id})
            audit = self._audit(moderator_user_id, TourAction.OPEN_CHECKIN, {}, why)
            change = TournamentChange(status=TournamentStatus.CHECKIN, registration_open=False, audit=[audit])
            await self._tour_change(data, change)
            return self._info_of(await self._data(t.id))

        result: TournamentInfo = await self._locked_tour(tournament_id, None, work)
        return result

    async def check_in(self, tournament_id: int, user_id: int) -> TournamentAction:
        """A registered player confirms they play (during the check-in window)."""
        user_id = check_id(user_id, IdKind.USER)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            if t.status is not TournamentStatus.CHECKIN:
                raise WrongState(Why.CHECKIN_CLOSED, {"tournament_id": t.id})
            found = _participant(data, user_id)
            if found is None or found.status is not ParticipantStatus.REGISTERED:
                if found is not None and found.status is ParticipantStatus.CHECKED_IN:
                    raise WrongState(Why.ALREADY_REGISTERED, {"tournament_id": t.id, "status": found.status})
                raise NotAPlayer(Why.NOT_REGISTERED, {"tournament_id": t.id})
            write = ParticipantWrite(user_id, found.display_name, ParticipantStatus.CHECKED_IN)
            audit = self._audit(user_id, TourAction.CHECK_IN, {"user_id": user_id})
            await self._tour_change(data, TournamentChange(participants=[write], audit=[audit]))
            return await self._action(t.id, TourAction.CHECK_IN, user_id)

        result: TournamentAction = await self._locked_tour(tournament_id, None, work)
        return result

    # ----- rounds ---------------------------------------------------------------------

    async def start_round(
        self,
        tournament_id: int,
        moderator_user_id: int,
        open_channel: OpenChannel,
        *,
        expected_version: int | None = None,
        reason: str = "",
    ) -> RoundStarted:
        """Pair the next round (or the final table after the Swiss rounds) and open its tables.

        A round that is paired but has tables not open yet (the bot stopped
        while opening them) is opened on instead: the same call finishes it.
        """
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> RoundStarted:
            t = data.tournament
            _require(data, (*BEFORE_START, TournamentStatus.RUNNING))
            settings = TournamentSettings.from_json(t.settings)
            current = data.rounds[-1] if data.rounds else None
            if current is not None and current.status is RoundStatus.RUNNING:
                if any(_needs_opening(row) for row in data.tables if row.round == current.round):
                    return await self._open_round(t.id, current.round, open_channel, moderator_user_id, 0)
                raise WrongState(Why.ROUND_RUNNING, {"tournament_id": t.id, "round": current.round})
            if t.status is TournamentStatus.REGISTRATION and settings.checkin:
                raise WrongState(Why.TOURNAMENT_IS, {"tournament_id": t.id, "status": t.status})
            number = len(data.rounds) + 1
            final = number > settings.rounds
            if final and (settings.final_table is None or any(r.final for r in data.rounds)):
                raise WrongState(Why.ALL_ROUNDS_PLAYED, {"tournament_id": t.id, "rounds": settings.rounds})
            writes: list[ParticipantWrite] = []
            not_checked_in: list[int] = []
            if number == 1:
                for p in data.participants:
                    if p.status is ParticipantStatus.CHECKED_IN or (
                        p.status is ParticipantStatus.REGISTERED and not settings.checkin
                    ):
                        writes.append(ParticipantWrite(p.user_id, p.display_name, ParticipantStatus.ACTIVE))
                    elif p.status is ParticipantStatus.REGISTERED:
                        writes.append(ParticipantWrite(p.user_id, p.display_name, ParticipantStatus.DROPPED))
                        not_checked_in.append(p.user_id)
                active = [w.user_id for w in writes if w.status is ParticipantStatus.ACTIVE]
            else:
                active = [p.user_id for p in data.participants if p.status is ParticipantStatus.ACTIVE]
            seed = f"{t.id}-{number}-1-{self._rng.getrandbits(48):012x}"
            order = self._ranked(data, active, seed)
            if final:
                assert settings.final_table is not None
                order = order[: settings.final_table]
            map_name = settings.map_of(number)
            tables, repeats = self._pair(data, order, settings, map_name, seed, final)
            now = self.now()
            deadline = (
                None
                if settings.round_deadline_minutes is None
                else now + timedelta(minutes=settings.round_deadline_minutes)
            )
            new_round = NewRound(number, 1, seed, final, map_name, now, deadline, tables)
            details = {
                "round": number,
                "attempt": 1,
                "final": final,
                "map": map_name,
                "seed": seed,
                "tables": [list(x) for x in tables],
                "repeats": repeats,
                "not_checked_in": not_checked_in,
            }
            audit = self._audit(moderator_user_id, TourAction.START_ROUND, details, why)
            change = TournamentChange(
                status=TournamentStatus.RUNNING,
                registration_open=False,
                participants=writes,
                round=new_round,
                audit=[audit],
            )
            await self._tour_change(data, change)
            started = await self._open_round(t.id, number, open_channel, moderator_user_id, repeats)
            return RoundStarted(started.tournament, started.round, repeats, tuple(not_checked_in))

        result: RoundStarted = await self._locked_tour(tournament_id, expected_version, work)
        return result

    def _ranked(self, data: TournamentData, active: Sequence[int], seed: str) -> list[int]:
        """The active players, best standing first (before any game: in an order drawn from `seed`)."""
        if not data.results:
            order = sorted(active)
            random.Random(f"conductor-round-order:{seed}").shuffle(order)
            return order
        rank = {line.user_id: i for i, line in enumerate(self._standings(data, keep_all=True))}
        return sorted(active, key=lambda u: (rank.get(u, len(rank)), u))

    def _pair(
        self,
        data: TournamentData,
        order: Sequence[int],
        settings: TournamentSettings,
        map_name: str,
        seed: str,
        final: bool,
    ) -> tuple[tuple[tuple[int, ...], ...], int]:
        rules = load_board(map_name).rules
        size = len(order) if final else settings.size
        try:
            pairing = pair_round(
                order,
                self._history(data),
                table_size=max(rules.min_players, min(size, rules.max_players)),
                min_players=rules.min_players,
                max_players=rules.max_players,
                seed=seed,
            )
        except PairingError as exc:
            facts = {
                "tournament_id": data.tournament.id,
                "players": len(order),
                "low": rules.min_players,
                "table_size": size,
            }
            raise WrongState(Why.TOO_FEW_PLAYERS, facts) from exc
        return pairing.tables, pairing.repeats

    def _history(self, data: TournamentData) -> History:
        """Who met whom and who sat first, over the tables paired so far (substitutes take over their players')."""
        entry = _entries(data)
        rounds: dict[int, list[tuple[int, ...]]] = {}
        for row in data.tables:
            if row.status is not TableStatus.VOID:
                rounds.setdefault(row.round, []).append(tuple(entry(u) for u in row.seats))
        return History.from_rounds(rounds[r] for r in sorted(rounds))

    async def _open_round(
        self, tournament_id: int, round_no: int, open_channel: OpenChannel, moderator_user_id: int, repeats: int
    ) -> RoundStarted:
        data = await self._data(tournament_id)
        info = self._info_of(data)
        r = next(x for x in info.rounds if x.round == round_no)
        for table in r.tables:
            if table.status in (TableStatus.PENDING, TableStatus.PLAYING):
                await self._open_table(info, r, table, open_channel, moderator_user_id)
        await self._catch_up(await self._data(tournament_id))
        after = self._info_of(await self._data(tournament_id))
        return RoundStarted(after, next(x for x in after.rounds if x.round == round_no), repeats)

    async def _open_table(
        self, info: TournamentInfo, r: Round, table: Table, open_channel: OpenChannel, moderator_user_id: int
    ) -> None:
        """Open the table's thread and game, seat its players in the drawn order and start it (each step once)."""
        tid = info.id
        channel_id = table.channel_id
        if channel_id is None:
            plan = TablePlan(
                tid, info.name, info.channel_id, r.round, table.table_no, r.final, r.map, table.seats, table.names
            )
            channel_id = check_id(await open_channel(plan), IdKind.CHANNEL)
            if not await self.store.set_table_channel(tid, r.round, table.table_no, channel_id):
                return  # another process opened it meanwhile
        game_id = table.game_id
        host, host_name = table.seats[0], table.names[0]
        if game_id is None:
            created = await self.create_game(
                info.guild_id,
                channel_id,
                host,
                host_name,
                r.map,
                max_players=len(table.seats),
                trains=info.settings.trains,
                clock=info.settings.clock,
                check_limits=False,
            )
            game_id = created.game.id
            if not await self.store.set_table_game(tid, r.round, table.table_no, game_id):
                await self.cancel(game_id, host)
                return
        game = await self.game(game_id)
        if game.status is GameStatus.LOBBY:
            for user, name in zip(table.seats, table.names, strict=True):
                if game.seat_of(user) is None:
                    game = (await self.join(game_id, user, name)).game
            game = (await self.start(game_id, host, seat_order=table.seats)).game
        if not game.status.active:
            return
        autopilot = set(info.settings.autopilot) | {
            p.user_id
            for p in info.participants
            if p.status in (ParticipantStatus.DROPPED, ParticipantStatus.DISQUALIFIED)
        }
        for seat in game.seats:
            if seat.user_id in autopilot and not seat.autopilot and seat.seat is not None:
                current = await self.game(game_id)
                if not current.status.active:
                    return
                await self.set_autopilot(
                    game_id, seat.seat, True, moderator_user_id=moderator_user_id, reason="tournament autopilot"
                )

    async def repair_round(
        self,
        tournament_id: int,
        moderator_user_id: int,
        open_channel: OpenChannel,
        *,
        expected_version: int | None = None,
        reason: str = "",
    ) -> RoundStarted:
        """Pair the running round again, before any of its games has a move by a member; its games are cancelled."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> RoundStarted:
            t = data.tournament
            _require(data, (TournamentStatus.RUNNING,))
            current = data.rounds[-1] if data.rounds else None
            if current is None or current.status is not RoundStatus.RUNNING:
                raise WrongState(Why.NO_ROUND_RUNNING, {"tournament_id": t.id})
            tables = [row for row in data.tables if row.round == current.round]
            for row in tables:
                if row.status in (TableStatus.DONE, TableStatus.VOID):
                    raise WrongState(
                        Why.ROUND_HAS_MOVES, {"tournament_id": t.id, "round": current.round, "game_id": row.game_id}
                    )
                if row.game_id is not None and await self._member_moved(row.game_id):
                    raise WrongState(
                        Why.ROUND_HAS_MOVES, {"tournament_id": t.id, "round": current.round, "game_id": row.game_id}
                    )
            settings = TournamentSettings.from_json(t.settings)
            attempt = current.attempt + 1
            seed = f"{t.id}-{current.round}-{attempt}-{self._rng.getrandbits(48):012x}"
            players = [u for row in tables for u in row.seats]
            active = {p.user_id for p in data.participants if p.status is ParticipantStatus.ACTIVE}
            players = [u for u in players if u in active]
            # the standing order as it was when the round was paired
            order = self._ranked(_without_round(data, current.round), players, seed)
            paired, repeats = self._pair(
                _without_round(data, current.round), order, settings, current.map, seed, current.final
            )
            now = self.now()
            deadline = (
                None
                if settings.round_deadline_minutes is None
                else now + timedelta(minutes=settings.round_deadline_minutes)
            )
            new_round = NewRound(current.round, attempt, seed, current.final, current.map, now, deadline, paired)
            cancelled = [row.game_id for row in tables if row.game_id is not None]
            details = {
                "round": current.round,
                "attempt": attempt,
                "seed": seed,
                "tables": [list(x) for x in paired],
                "repeats": repeats,
                "cancelled_games": cancelled,
            }
            audit = self._audit(moderator_user_id, TourAction.REPAIR, details, why)
            try:
                await self._tour_change(data, TournamentChange(round=new_round, audit=[audit]))
            except StoreError as exc:
                if isinstance(exc, VersionConflict):
                    raise
                raise WrongState(
                    Why.ROUND_HAS_MOVES, {"tournament_id": t.id, "round": current.round, "game_id": None}
                ) from exc
            for game_id in cancelled:
                try:
                    await self.cancel(game_id, moderator_user_id, moderator=True, reason=why or "tournament re-pairing")
                except ServiceError:
                    log.warning("tournament #%d: game #%d of a re-paired round was over already", t.id, game_id)
            started = await self._open_round(t.id, current.round, open_channel, moderator_user_id, repeats)
            return RoundStarted(started.tournament, started.round, repeats, repaired=True)

        result: RoundStarted = await self._locked_tour(tournament_id, expected_version, work)
        return result

    async def _member_moved(self, game_id: int) -> bool:
        """Has a member's seat (not an autopilot player's) made a move in the game?"""
        live = await self._live_locked(game_id)
        if live.game is None:
            return False
        return any(not live.info.seats[live.game.seat(m.player)].bot for m in live.game.moves)

    async def overdue_tables(self, tournament_id: int) -> tuple[Table, ...]:
        """The running round's tables still playing past the round's deadline."""
        info = await self.tournament(tournament_id)
        r = info.current
        if r is None or r.deadline is None or r.status is not RoundStatus.RUNNING or self.now() < r.deadline:
            return ()
        return tuple(t for t in r.tables if t.status is TableStatus.PLAYING)

    # ----- results --------------------------------------------------------------------

    async def _finished(self, info: GameInfo, game: Game) -> None:
        """A game ended by the rules: a tournament table's result is recorded; any other game goes on to ratings."""
        try:
            table = await self.store.table_of_game(info.id)
        except Exception:
            log.exception("game #%d: could not look up its tournament table; recorded at the next read", info.id)
            return
        if table is None:
            await super()._finished(info, game)
            return
        try:
            await self._record_table(table, info, game)
        except Exception:
            log.exception("game #%d: could not record its tournament table now; recorded at the next read", info.id)

    async def _ended_by_moderator(self, info: GameInfo, game: Game | None) -> None:
        await super()._ended_by_moderator(info, game)
        try:
            table = await self.store.table_of_game(info.id)
            if table is not None:
                await self._record_table(table, info, game)
        except Exception:
            log.exception("game #%d: could not record its tournament table now; recorded at the next read", info.id)

    async def _record_table(self, table: TableRow, info: GameInfo, game: Game | None) -> TableResult | None:
        """Record an ended game's table (once), rate it if the tournament is rated; None if the game is not over."""
        if info.status.active:
            return None
        tournament = await self.store.tournament(table.tournament_id)
        if tournament is None:
            return None
        settings = TournamentSettings.from_json(tournament.settings)
        rounds = {r.round: r for r in (await self._data(tournament.id)).rounds}
        this_round = rounds.get(table.round)
        finishes: list[TableFinish] = []
        names: dict[int, str] = {}
        if info.status is GameStatus.FINISHED and game is not None:
            scores = game.score()
            places = placings(scores, game.rules.longest_bonus > 0)
            by_player = {s.player: s for s in info.seats}
            results = []
            for score, place in zip(scores, places, strict=True):
                seat = by_player[score.name]
                names[seat.user_id] = seat.display_name
                results.append(Finish(seat.user_id, place, score.total, score.completed))
            points = place_points(results)
            finishes = [TableFinish(f.player, f.place, points[f.player], f.score, f.tickets) for f in results]
        rated = False
        if finishes and settings.rated:
            rated = await self._rate(
                info, game, "tournament", ended_by_moderator=not (game is not None and game.finished)
            )
        last = this_round is not None and (
            this_round.final or (this_round.round >= settings.rounds and settings.final_table is None)
        )
        details = {
            "round": table.round,
            "table": table.table_no,
            "game_id": info.id,
            "status": info.status.value,
            "finishes": [
                {
                    "user_id": f.user_id,
                    "place": f.place,
                    "points": str(f.place_points),
                    "score": f.score,
                    "tickets": f.tickets_done,
                }
                for f in finishes
            ],
        }
        audit = self._audit(None, TourAction.TABLE_RESULT, details)
        recorded = await self.store.record_table_result(
            tournament.id, table.round, table.table_no, finishes, audit, last
        )
        if not recorded.recorded:
            return None
        after = await self._data(tournament.id)
        return TableResult(
            tournament.id,
            table.round,
            table.table_no,
            info.id,
            tuple(
                TableFinishInfo(f.user_id, names.get(f.user_id, ""), f.place, f.place_points, f.score, f.tickets_done)
                for f in finishes
            ),
            rated,
            recorded.round_complete,
            after.tournament.status is TournamentStatus.FINISHED,
            tuple(self._standings(after)),
        )

    async def table_result(self, game_id: int) -> TableResult | None:
        """Record the table of a game that ended, if it is a tournament's and not recorded yet (the front calls it
        when a game ends, to announce the table's result and the standings); None if there is nothing new."""
        table = await self.store.table_of_game(check_id(game_id, IdKind.GAME))
        if table is None or table.status is not TableStatus.PLAYING:
            return None
        live = await self._live_locked(game_id)
        return await self._record_table(table, live.info, live.game)

    async def _live_locked(self, game_id: int) -> LiveGame:
        return await self._locked(game_id, partial(self._live, game_id))

    async def catch_up(self, tournament_id: int) -> list[TableResult]:
        """Record every table whose game ended without its result recorded (after a restart); what was recorded."""
        return await self._catch_up(await self._data(tournament_id))

    async def _catch_up(self, data: TournamentData) -> list[TableResult]:
        out = []
        for row in data.tables:
            if row.status is TableStatus.PLAYING and row.game_id is not None:
                live = await self._live_locked(row.game_id)
                if not live.info.status.active:
                    result = await self._record_table(row, live.info, live.game)
                    if result is not None:
                        out.append(result)
        return out

    # ----- moderation -----------------------------------------------------------------

    async def substitute(
        self,
        tournament_id: int,
        moderator_user_id: int,
        user_id: int,
        new_user_id: int,
        new_display_name: str,
        reason: str = "",
        *,
        expected_version: int | None = None,
    ) -> TournamentAction:
        """A new member takes a playing participant's place: their seat in a running game (as `/ttrmod replace`)
        and their standing; the participant is out (dropped)."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        user_id = check_id(user_id, IdKind.USER)
        new_user_id = check_id(new_user_id, IdKind.NEW_PLAYER)
        new_name = check_name(new_display_name)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            _require(data, (TournamentStatus.RUNNING,))
            old = _active(data, user_id)
            if _participant(data, new_user_id) is not None:
                raise WrongState(Why.ALREADY_IN_TOURNAMENT, {"tournament_id": t.id, "user_id": new_user_id})
            running = await self._running_seat(data, user_id)
            writes = [
                ParticipantWrite(user_id, old.display_name, ParticipantStatus.DROPPED),
                ParticipantWrite(new_user_id, new_name, ParticipantStatus.ACTIVE, substitute_for=user_id),
            ]
            details = {
                "user_id": user_id,
                "name": old.display_name,
                "new_user_id": new_user_id,
                "new_name": new_name,
                "game_id": None if running is None else running[0],
            }
            audit = self._audit(moderator_user_id, TourAction.SUBSTITUTE, details, why)
            await self._tour_change(data, TournamentChange(participants=writes, audit=[audit]))
            if running is not None:
                await self.replace(
                    running[0], moderator_user_id, running[1], new_user_id, new_name, why or "tournament substitute"
                )
            return await self._action(
                t.id, TourAction.SUBSTITUTE, new_user_id, game_id=None if running is None else running[0]
            )

        result: TournamentAction = await self._locked_tour(tournament_id, expected_version, work)
        return result

    async def drop(
        self,
        tournament_id: int,
        moderator_user_id: int,
        user_id: int,
        reason: str = "",
        *,
        disqualify: bool = False,
        expected_version: int | None = None,
    ) -> TournamentAction:
        """Take a participant out of later rounds (`disqualify`: out of the standings too); their seat in a running
        game goes to the autopilot. Before round 1 a participant is simply taken off the list."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        user_id = check_id(user_id, IdKind.USER)
        check_flag(disqualify, "disqualify")
        why = clean_reason(reason)
        action = TourAction.DISQUALIFY if disqualify else TourAction.DROP
        status = ParticipantStatus.DISQUALIFIED if disqualify else ParticipantStatus.DROPPED

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            _require(data, (*BEFORE_START, TournamentStatus.RUNNING))
            found = _participant(data, user_id)
            if found is None:
                raise NotAPlayer(Why.NOT_REGISTERED, {"tournament_id": t.id})
            allowed = (
                (ParticipantStatus.ACTIVE,)
                if t.status is TournamentStatus.RUNNING
                else (
                    *REGISTERED,
                    ParticipantStatus.WAITLISTED,
                )
            )
            if disqualify and found.status is ParticipantStatus.DROPPED:
                allowed = (*allowed, ParticipantStatus.DROPPED)
            if found.status not in allowed:
                raise WrongState(Why.NOT_ACTIVE, {"tournament_id": t.id, "user_id": user_id, "status": found.status})
            running = await self._running_seat(data, user_id)
            details = {
                "user_id": user_id,
                "name": found.display_name,
                "game_id": None if running is None else running[0],
            }
            audit = self._audit(moderator_user_id, action, details, why)
            await self._tour_change(
                data,
                TournamentChange(participants=[ParticipantWrite(user_id, found.display_name, status)], audit=[audit]),
            )
            if running is not None:
                game_id, seat = running
                info = await self.game(game_id)
                if info.status.active and not info.seats[seat].autopilot:
                    await self.set_autopilot(
                        game_id, seat, True, moderator_user_id=moderator_user_id, reason=why or action.value
                    )
            return await self._action(t.id, action, user_id, game_id=None if running is None else running[0])

        result: TournamentAction = await self._locked_tour(tournament_id, expected_version, work)
        return result

    async def disqualify(
        self, tournament_id: int, moderator_user_id: int, user_id: int, reason: str = ""
    ) -> TournamentAction:
        return await self.drop(tournament_id, moderator_user_id, user_id, reason, disqualify=True)

    async def _running_seat(self, data: TournamentData, user_id: int) -> tuple[int, int] | None:
        """The running game of the current round where `user_id` holds a seat, and the seat."""
        for row in data.tables:
            if row.status is TableStatus.PLAYING and row.game_id is not None:
                info = await self.game(row.game_id)
                seat = info.seat_of(user_id)
                if info.status.active and seat is not None and seat.seat is not None:
                    return row.game_id, seat.seat
        return None

    async def adjudicate(
        self,
        tournament_id: int,
        moderator_user_id: int,
        round_no: int,
        table_no: int,
        *,
        score: bool,
        reason: str = "",
    ) -> TournamentAction:
        """Settle a stuck or overdue table: `score` True ends its game scored as it stands; False hands every seat
        to the autopilot, which plays it out. The table's result is recorded when its game ends."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        check_flag(score, "score")
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            row = next((x for x in data.tables if x.round == round_no and x.table_no == table_no), None)
            if row is None:
                raise NotFound(Why.NO_SUCH_TABLE, {"tournament_id": t.id, "round": round_no, "table": table_no})
            if row.status is not TableStatus.PLAYING or row.game_id is None:
                raise WrongState(
                    Why.TABLE_OVER, {"tournament_id": t.id, "round": round_no, "table": table_no, "status": row.status}
                )
            game_id = row.game_id
            details = {"round": round_no, "table": table_no, "game_id": game_id, "score": score}
            audit = self._audit(moderator_user_id, TourAction.ADJUDICATE, details, why)
            await self._tour_change(data, TournamentChange(audit=[audit]))
            if score:
                await self.end(game_id, moderator_user_id, True, why or "tournament adjudication")
            else:
                info = await self.game(game_id)
                for seat in info.seats:
                    current = await self.game(game_id)
                    if not current.status.active:
                        break
                    if seat.seat is not None and not current.seats[seat.seat].autopilot:
                        await self.set_autopilot(
                            game_id,
                            seat.seat,
                            True,
                            moderator_user_id=moderator_user_id,
                            reason=why or "tournament adjudication",
                        )
            return await self._action(t.id, TourAction.ADJUDICATE, None, game_id=game_id)

        result: TournamentAction = await self._locked_tour(tournament_id, None, work)
        return result

    async def cancel_tournament(self, tournament_id: int, moderator_user_id: int, reason: str = "") -> TournamentInfo:
        """Call the tournament off; its running games go on as casual games (a moderator may end them)."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentInfo:
            _require(data, (*BEFORE_START, TournamentStatus.RUNNING))
            audit = self._audit(moderator_user_id, TourAction.CANCEL, {}, why)
            change = TournamentChange(status=TournamentStatus.CANCELLED, registration_open=False, audit=[audit])
            await self._tour_change(data, change)
            return self._info_of(await self._data(data.tournament.id))

        result: TournamentInfo = await self._locked_tour(tournament_id, None, work)
        return result

    # ----- standings and export -------------------------------------------------------

    def _standings(self, data: TournamentData, *, keep_all: bool = False) -> list[StandingLine]:
        entry = _entries(data)
        tables: dict[tuple[int, int], list[Finish]] = {}
        for r in data.results:
            tables.setdefault((r.round, r.table_no), []).append(
                Finish(entry(r.user_id), r.place, r.score, r.tickets_done)
            )
        by_user = {p.user_id: p for p in data.participants}
        current = {entry(p.user_id) for p in data.participants if p.status is ParticipantStatus.ACTIVE}
        rows = standings([StandingTable(tuple(f)) for _, f in sorted(tables.items())], current)
        out: list[StandingLine] = []
        for row in rows:
            p = by_user.get(row.player)
            status = ParticipantStatus.ACTIVE if p is None else p.status
            if status is ParticipantStatus.DISQUALIFIED and not keep_all:
                continue
            out.append(
                StandingLine(
                    row.rank,
                    row.player,
                    "" if p is None else p.display_name,
                    status,
                    row.place_points,
                    row.score,
                    row.tickets,
                    row.opponents_strength,
                    row.games,
                    row.wins,
                )
            )
        return _reranked(out)

    async def standings(self, tournament_id: int) -> tuple[StandingLine, ...]:
        """The standings now: place points, then game score, tickets completed, opponents' strength
        (bot/service/tournaments/standings.py); disqualified players left out."""
        await self.catch_up(tournament_id)
        return tuple(self._standings(await self._data(tournament_id)))

    async def standings_csv(self, tournament_id: int) -> str:
        """The standings as CSV text (one header line)."""
        lines = await self.standings(tournament_id)
        return _csv(lines)

    async def export_archive(self, tournament_id: int, moderator_user_id: int | None = None) -> bytes:
        """One zip: standings.csv, tournament.json (settings, rounds, tables, results, audit) and the record of
        every game of the tournament that is over (games/round-R-table-T-game-G.json), each carrying its
        verification chain. Running games are left out: their records would show their decks."""
        info = await self.tournament(tournament_id)
        lines = tuple(self._standings(await self._data(tournament_id)))
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("standings.csv", _csv(lines))
            summary = {
                "tournament_id": info.id,
                "guild_id": info.guild_id,
                "name": info.name,
                "status": info.status.value,
                "settings": info.settings.to_json(),
                "participants": [
                    {
                        "user_id": p.user_id,
                        "display_name": p.display_name,
                        "status": p.status.value,
                        "substitute_for": p.substitute_for,
                    }
                    for p in info.participants
                ],
                "rounds": [
                    {
                        "round": r.round,
                        "attempt": r.attempt,
                        "final": r.final,
                        "map": r.map,
                        "seed": r.seed,
                        "status": r.status.value,
                        "tables": [
                            {
                                "table": x.table_no,
                                "seats": list(x.seats),
                                "game_id": x.game_id,
                                "status": x.status.value,
                            }
                            for x in r.tables
                        ],
                    }
                    for r in info.rounds
                ],
                "audit": await self.tournament_audit(tournament_id),
            }
            archive.writestr("tournament.json", json.dumps(summary, indent=1, ensure_ascii=False))
            for r in info.rounds:
                for x in r.tables:
                    if x.game_id is None:
                        continue
                    stored = await self.store.stored_game(x.game_id)
                    if stored is None or stored.game.status.active or stored.game.seed is None:
                        continue
                    record = record_of(stored, await self.store.audit_log(x.game_id))
                    name = f"games/round-{r.round}-table-{x.table_no}-game-{x.game_id}.json"
                    archive.writestr(name, json.dumps(record, ensure_ascii=False))
        return buffer.getvalue()


# ----- helpers --------------------------------------------------------------------------


def _tournament_id(value: object) -> int:
    """A tournament id; anything that cannot be one is no such tournament."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        raise NotFound(Why.NO_SUCH_TOURNAMENT, {"tournament_id": value})
    return value


def _tournament_name(raw: object) -> str:
    if not isinstance(raw, str):
        raise InvalidInput(Why.BAD_TOURNAMENT_NAME, {"limit": MAX_NAME})
    text = " ".join(raw.split())
    if not text or len(text) > MAX_NAME:
        raise InvalidInput(Why.BAD_TOURNAMENT_NAME, {"limit": MAX_NAME})
    return text


def _require(data: TournamentData, statuses: Iterable[TournamentStatus]) -> None:
    t = data.tournament
    if t.status not in tuple(statuses):
        raise WrongState(Why.TOURNAMENT_IS, {"tournament_id": t.id, "status": t.status})


def _participant(data: TournamentData, user_id: int) -> ParticipantRow | None:
    return next((p for p in data.participants if p.user_id == user_id), None)


def _active(data: TournamentData, user_id: int) -> ParticipantRow:
    found = _participant(data, user_id)
    if found is None:
        raise NotAPlayer(Why.NOT_REGISTERED, {"tournament_id": data.tournament.id})
    if found.status is not ParticipantStatus.ACTIVE:
        raise WrongState(
            Why.NOT_ACTIVE, {"tournament_id": data.tournament.id, "user_id": user_id, "status": found.status}
        )
    return found


def _entries(data: TournamentData) -> Callable[[int], int]:
    """Who a user's results count for: a substitute's predecessor counts for the substitute (chains followed)."""
    successor = {p.substitute_for: p.user_id for p in data.participants if p.substitute_for is not None}

    def entry(user_id: int) -> int:
        seen = {user_id}
        while user_id in successor:
            user_id = successor[user_id]
            if user_id in seen:
                break
            seen.add(user_id)
        return user_id

    return entry


def _needs_opening(row: TableRow) -> bool:
    return row.status is TableStatus.PENDING or (row.status is TableStatus.PLAYING and row.game_id is None)


def _without_round(data: TournamentData, round_no: int) -> TournamentData:
    return TournamentData(
        data.tournament,
        data.participants,
        tuple(r for r in data.rounds if r.round != round_no),
        tuple(x for x in data.tables if x.round != round_no),
        tuple(x for x in data.results if x.round != round_no),
    )


def _reranked(lines: Sequence[StandingLine]) -> list[StandingLine]:
    """Ranks again after lines were left out: equal on every figure, equal rank (1, 2, 2, 4)."""
    out: list[StandingLine] = []
    for position, line in enumerate(lines, start=1):
        key = (line.place_points, line.score, line.tickets, line.opponents_strength)
        if out:
            last = out[-1]
            if (last.place_points, last.score, last.tickets, last.opponents_strength) == key:
                out.append(_with_rank(line, last.rank))
                continue
        out.append(_with_rank(line, position))
    return out


def _with_rank(line: StandingLine, rank: int) -> StandingLine:
    return replace(line, rank=rank)


CSV_HEADER = (
    "rank",
    "user_id",
    "display_name",
    "status",
    "place_points",
    "score",
    "tickets",
    "opponents_strength",
    "games",
    "wins",
)


def _csv(lines: Sequence[StandingLine]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for line in lines:
        writer.writerow(
            (
                line.rank,
                line.user_id,
                _cell(line.display_name),
                line.status.value,
                _decimal(line.place_points),
                line.score,
                line.tickets,
                _decimal(line.opponents_strength),
                line.games,
                line.wins,
            )
        )
    return out.getvalue()


def _cell(text: str) -> str:
    """A member's name in a CSV cell: never read as a formula by a spreadsheet."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


__all__ = ["OpenChannel", "TourAction", "TournamentService"]
