"""The tournament desk's shared core: each tournament's lock, loading it, changing it, its audit entries.

Every change of a tournament is one store transaction checked against the
version the service read, under the tournament's own lock (`_locked_tour`): a
double click acts once, and a stale button is refused (`TournamentChanged`).
The other parts (registration.py, rounds.py, results.py, sanctions.py,
export.py) build on `TourCore`; service.py puts them together.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from enum import StrEnum
from functools import partial
from typing import Any

from bot.service.checks import MAX_ID, check_id
from bot.service.core import ServiceCore
from bot.service.errors import (
    IdKind,
    InvalidInput,
    NotFound,
    TournamentChanged,
    Why,
    WrongState,
)
from bot.service.loading import LiveGame
from bot.service.names import known_name
from bot.service.tournaments.models import (
    Participant,
    Round,
    Table,
    TablePlan,
    TableResult,
    TournamentAction,
    TournamentInfo,
    TournamentSettings,
)
from bot.store import UnknownTournament, VersionConflict
from bot.store.protocols import TournamentStore
from bot.store.tournament_rows import (
    NewTournamentAudit,
    ParticipantRow,
    ParticipantStatus,
    ParticipantWrite,
    TournamentChange,
    TournamentData,
    TournamentRow,
    TournamentStatus,
)

# the front opens a table's thread and says its channel id
OpenChannel = Callable[[TablePlan], Awaitable[int]]
# records every table of a tournament whose game ended without its result recorded; what it recorded
CatchUp = Callable[[TournamentData], Awaitable[list[TableResult]]]

REGISTERED = (ParticipantStatus.REGISTERED, ParticipantStatus.CHECKED_IN)
# a moderator's sanction: it stays (no leave and join again) until a moderator reinstates the player
SANCTIONED = (ParticipantStatus.DROPPED, ParticipantStatus.DISQUALIFIED)
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
    REINSTATE = "reinstate"


class TourCore:
    """What every part of the tournament desk shares: locks, loading, versioned changes, audit entries."""

    def __init__(self, core: ServiceCore, tournament_store: TournamentStore) -> None:
        self.core = core
        self.tournament_store = tournament_store
        self._tour_locks: dict[int, asyncio.Lock] = {}
        self._round_locks: dict[int, asyncio.Lock] = {}
        # records the tables whose games ended without their result recorded (results.py; set when assembled)
        self.catch_up: CatchUp = _nothing_to_catch_up

    def _tour_lock(self, tournament_id: int) -> asyncio.Lock:
        return self._tour_locks.setdefault(tournament_id, asyncio.Lock())

    def round_lock(self, tournament_id: int) -> asyncio.Lock:
        """Held while a round of the tournament is paired and its tables opened (threads by the front, games):
        one opening at a time, while every other call on the tournament goes on between its steps."""
        return self._round_locks.setdefault(tournament_id, asyncio.Lock())

    # ----- reading ------------------------------------------------------------------

    async def data(self, tournament_id: int) -> TournamentData:
        tournament_id = check_tournament_id(tournament_id)
        data = await self.tournament_store.tournament_data(tournament_id)
        if data is None:
            raise NotFound(Why.NO_SUCH_TOURNAMENT, {"tournament_id": tournament_id})
        return data

    def info_of(self, data: TournamentData) -> TournamentInfo:
        t = data.tournament
        settings = TournamentSettings.from_json(t.settings)
        names = {p.user_id: known_name(p.display_name, p.user_id) for p in data.participants}
        participants = tuple(
            Participant(p.user_id, names[p.user_id], p.status, p.joined, p.joined_at, p.substitute_for)
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
        await self.catch_up(await self.data(tournament_id))
        return self.info_of(await self.data(tournament_id))

    async def tournaments(self, guild_id: int) -> list[TournamentInfo]:
        """The server's tournaments, newest first."""
        guild_id = check_id(guild_id, IdKind.SERVER)
        out = []
        for row in await self.tournament_store.tournaments_of_guild(guild_id):
            data = await self.tournament_store.tournament_data(row.id)
            if data is not None:
                out.append(self.info_of(data))
        return out

    async def recent_tournaments(
        self, guild_id: int, statuses: Iterable[TournamentStatus], limit: int
    ) -> list[TournamentRow]:
        """The server's newest tournaments in one of `statuses`, newest first, at most `limit`: one query, for
        autocomplete (`tournaments` reads each tournament whole)."""
        guild_id = check_id(guild_id, IdKind.SERVER)
        return await self.tournament_store.recent_tournaments(guild_id, tuple(statuses), limit)

    # ----- writing ------------------------------------------------------------------

    async def change(self, data: TournamentData, change: TournamentChange) -> int:
        tid = data.tournament.id
        try:
            return await self.tournament_store.change_tournament(tid, data.tournament.version, change)
        except VersionConflict:
            raise TournamentChanged(tid) from None
        except UnknownTournament:
            raise NotFound(Why.NO_SUCH_TOURNAMENT, {"tournament_id": tid}) from None

    def audit_entry(
        self, user_id: int | None, action: TourAction, details: dict[str, Any], reason: str = ""
    ) -> NewTournamentAudit:
        return NewTournamentAudit(user_id, action.value, details, reason, self.core.now())

    async def locked_tour(
        self, tournament_id: int, expected_version: int | None, work: Callable[[TournamentData], Awaitable[Any]]
    ) -> Any:
        """Run `work` on the tournament under its lock, after recording games that ended meanwhile."""
        tournament_id = check_tournament_id(tournament_id)
        if expected_version is not None and (
            isinstance(expected_version, bool) or not isinstance(expected_version, int)
        ):
            raise InvalidInput(Why.BAD_VERSION, {"value": expected_version})
        async with self._tour_lock(tournament_id):
            await self.catch_up(await self.data(tournament_id))
            data = await self.data(tournament_id)
            if expected_version is not None and expected_version != data.tournament.version:
                raise TournamentChanged(tournament_id)
            return await work(data)

    async def action(
        self, tournament_id: int, action: TourAction, user_id: int | None, **extra: Any
    ) -> TournamentAction:
        info = self.info_of(await self.data(tournament_id))
        participant = None if user_id is None else info.participant(user_id)
        return TournamentAction(
            info, action.value, user_id, status=None if participant is None else participant.status, **extra
        )

    async def live_locked(self, game_id: int) -> LiveGame:
        return await self.core.locked(game_id, partial(self.core.live, game_id))


async def _nothing_to_catch_up(data: TournamentData) -> list[TableResult]:
    return []


# ----- helpers --------------------------------------------------------------------------


def check_tournament_id(value: object) -> int:
    """A tournament id; anything that cannot be one is no such tournament."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        raise NotFound(Why.NO_SUCH_TOURNAMENT, {"tournament_id": value})
    return value


def require_status(data: TournamentData, statuses: Iterable[TournamentStatus]) -> None:
    t = data.tournament
    if t.status not in tuple(statuses):
        raise WrongState(Why.TOURNAMENT_IS, {"tournament_id": t.id, "status": t.status})


def participant_row(data: TournamentData, user_id: int) -> ParticipantRow | None:
    return next((p for p in data.participants if p.user_id == user_id), None)


def refuse_sanctioned(data: TournamentData, found: ParticipantRow | None) -> None:
    """A dropped or disqualified player cannot leave, join again or check in: the sanction stays until lifted."""
    if found is not None and found.status in SANCTIONED:
        raise WrongState(Why.SANCTIONED, {"tournament_id": data.tournament.id, "status": found.status})


def promotions(data: TournamentData, leaving: Iterable[int] = ()) -> list[ParticipantWrite]:
    """The waiting players who get a place once `leaving` are off the registered list: in join order, while the
    cap allows (every waiting player when the cap is gone)."""
    settings = TournamentSettings.from_json(data.tournament.settings)
    gone = set(leaving)
    registered = sum(1 for p in data.participants if p.status in REGISTERED and p.user_id not in gone)
    waiting = [p for p in data.participants if p.status is ParticipantStatus.WAITLISTED and p.user_id not in gone]
    free = len(waiting) if settings.cap is None else max(0, settings.cap - registered)
    return [ParticipantWrite(p.user_id, p.display_name, ParticipantStatus.REGISTERED) for p in waiting[:free]]


def entries_of(data: TournamentData) -> Callable[[int], int]:
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
