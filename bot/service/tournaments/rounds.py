"""The tournament desk, rounds: pair a round (Swiss, or the final table: round_plan.py) and record it, then open
its tables (tables.py: each a game opened through the lobby calls in a channel the front opens); re-pair a round
(its old games ended, also after a crash: deadlines.py).

A round that is paired but has tables not open yet (the bot stopped while
opening them) is opened on by the next `start_round`. Participants listed in
`settings.autopilot` and dropped ones get their seat played by the autopilot.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from bot.service.checks import check_id, clean_reason
from bot.service.core import ServiceCore
from bot.service.errors import (
    IdKind,
    ServiceError,
    Why,
    WrongState,
)
from bot.service.lobby import LobbyService
from bot.service.tournaments.deadlines import REPAIR_REASON, cleanup_timer, deadline_timer
from bot.service.tournaments.models import (
    RoundStarted,
    TournamentSettings,
)
from bot.service.tournaments.round_plan import pair, ranked
from bot.service.tournaments.tables import Paired, TableOpener, needs_opening
from bot.service.tournaments.tour_core import (
    BEFORE_START,
    OpenChannel,
    TourAction,
    TourCore,
    check_tournament_id,
    require_status,
)
from bot.store import StoreError, VersionConflict
from bot.store.tournament_rows import (
    NewRound,
    ParticipantStatus,
    ParticipantWrite,
    RoundStatus,
    TableStatus,
    TournamentChange,
    TournamentData,
    TournamentStatus,
)

log = logging.getLogger(__name__)


class TourRounds:
    """Start, open and re-pair rounds (each with its deadline's timer: deadlines.py)."""

    def __init__(self, core: ServiceCore, lobby: LobbyService, desk: TourCore, tables: TableOpener) -> None:
        self.core = core
        self.lobby = lobby
        self.desk = desk
        self.tables = tables

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
        tournament_id = check_tournament_id(tournament_id)
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> Paired:
            t = data.tournament
            require_status(data, (*BEFORE_START, TournamentStatus.RUNNING))
            settings = TournamentSettings.from_json(t.settings)
            current = data.rounds[-1] if data.rounds else None
            if current is not None and current.status is RoundStatus.RUNNING:
                if any(needs_opening(row) for row in data.tables if row.round == current.round):
                    return Paired(current.round, 0)
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
            seed = f"{t.id}-{number}-1-{self.core.rng.getrandbits(48):012x}"
            order = ranked(data, active, seed)
            if final:
                assert settings.final_table is not None
                order = order[: settings.final_table]
            map_name = settings.map_of(number)
            tables, repeats = pair(data, order, settings, map_name, seed, final)
            now = self.core.now()
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
            audit = self.desk.audit_entry(moderator_user_id, TourAction.START_ROUND, details, why)
            timers = [] if deadline is None else [deadline_timer(t.id, number, 1, deadline)]
            change = TournamentChange(
                status=TournamentStatus.RUNNING,
                registration_open=False,
                participants=writes,
                round=new_round,
                audit=[audit],
                timers=timers,
            )
            await self.desk.change(data, change)
            self.core.timers_written(timers)
            return Paired(number, repeats, tuple(not_checked_in))

        async with self.desk.round_lock(tournament_id):
            paired: Paired = await self.desk.locked_tour(tournament_id, expected_version, work)
            return await self.tables.open_round(tournament_id, paired, open_channel, moderator_user_id)

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
        tournament_id = check_tournament_id(tournament_id)
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> Paired:
            t = data.tournament
            require_status(data, (TournamentStatus.RUNNING,))
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
            seed = f"{t.id}-{current.round}-{attempt}-{self.core.rng.getrandbits(48):012x}"
            players = [u for row in tables for u in row.seats]
            active = {p.user_id for p in data.participants if p.status is ParticipantStatus.ACTIVE}
            players = [u for u in players if u in active]
            # the standing order as it was when the round was paired
            order = ranked(_without_round(data, current.round), players, seed)
            paired, repeats = pair(
                _without_round(data, current.round), order, settings, current.map, seed, current.final
            )
            now = self.core.now()
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
            audit = self.desk.audit_entry(moderator_user_id, TourAction.REPAIR, details, why)
            # the old games are cancelled below; if the bot stops first, this timer cancels them at its next start
            reason = why or REPAIR_REASON
            timers = [cleanup_timer(t.id, cancelled, moderator_user_id, reason, now)] if cancelled else []
            if deadline is not None:
                timers.append(deadline_timer(t.id, current.round, attempt, deadline))
            try:
                await self.desk.change(data, TournamentChange(round=new_round, audit=[audit], timers=timers))
            except StoreError as exc:
                if isinstance(exc, VersionConflict):
                    raise
                raise WrongState(
                    Why.ROUND_HAS_MOVES, {"tournament_id": t.id, "round": current.round, "game_id": None}
                ) from exc
            self.core.timers_written(timers)
            for game_id in cancelled:
                try:
                    await self.lobby.cancel(game_id, moderator_user_id, moderator=True, reason=reason)
                except ServiceError:
                    log.warning("tournament #%d: game #%d of a re-paired round was over already", t.id, game_id)
            return Paired(current.round, repeats, repaired=True)

        async with self.desk.round_lock(tournament_id):
            paired: Paired = await self.desk.locked_tour(tournament_id, expected_version, work)
            return await self.tables.open_round(tournament_id, paired, open_channel, moderator_user_id)

    async def _member_moved(self, game_id: int) -> bool:
        """Has a member's seat (not an autopilot player's) made a move in the game?"""
        live = await self.desk.live_locked(game_id)
        if live.game is None:
            return False
        return any(not live.info.seats[live.game.seat(m.player)].bot for m in live.game.moves)


# ----- helpers --------------------------------------------------------------------------


def _without_round(data: TournamentData, round_no: int) -> TournamentData:
    return TournamentData(
        data.tournament,
        data.participants,
        tuple(r for r in data.rounds if r.round != round_no),
        tuple(x for x in data.tables if x.round != round_no),
        tuple(x for x in data.results if x.round != round_no),
    )
