"""The tournament desk, its timers: a round's deadline, and the end of a re-paired round's old games.

Both are timers of no game in the store's `timers` table, written in the same
transaction as the round they are for (`TournamentChange.timers`), and fired
by the scheduler (bot/runtime/scheduler.py) once, also after a restart:

- `ROUND_DEADLINE`: at a round's deadline, the tables still playing are
  overdue: `TimerOutcome.overdue` hands them to the front, which tells the
  moderators and offers `/ttrtour adjudicate`. The deadline of an attempt
  that was paired again, of a round that is complete or of a tournament that
  is over tells nothing. The timer is deleted before the notice goes out: a
  crash in between loses the notice rather than sending it twice.
- `REPAIR_CLEANUP`: a re-pairing cancels the old attempt's games right after
  the new pairing is stored; this timer, stored with the pairing, cancels any
  of them still open (the bot stopped in between) when it fires, at once or
  at the next start. Cancelling is idempotent, so it is deleted after.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.service.core import ServiceCore
from bot.service.errors import NotFound, ServiceError
from bot.service.kinds import TimerKind
from bot.service.lobby import LobbyService
from bot.service.timer_outcome import TimerOutcome
from bot.service.tournaments.models import OverdueTables, Table, TournamentInfo
from bot.service.tournaments.tour_core import TourCore
from bot.store import NewTimer, TimerRow
from bot.store.protocols import TimerStore
from bot.store.tournament_rows import RoundStatus, TableStatus, TournamentStatus

log = logging.getLogger(__name__)

REPAIR_REASON = "tournament re-pairing"


def deadline_timer(tournament_id: int, round_no: int, attempt: int, deadline: datetime) -> NewTimer:
    """The timer that fires at a round's (attempt's) deadline."""
    data = {"tournament_id": tournament_id, "round": round_no, "attempt": attempt}
    return NewTimer(TimerKind.ROUND_DEADLINE, deadline, data)


def cleanup_timer(tournament_id: int, games: list[int], moderator_user_id: int, reason: str, at: datetime) -> NewTimer:
    """The timer that ends a re-paired round's old games if the re-pairing stopped before it did."""
    data = {"tournament_id": tournament_id, "games": games, "moderator": moderator_user_id, "reason": reason}
    return NewTimer(TimerKind.REPAIR_CLEANUP, at, data)


class TourTimers:
    """A round's deadline (the overdue tables), a re-paired round's old games ended."""

    def __init__(self, core: ServiceCore, timer_store: TimerStore, lobby: LobbyService, desk: TourCore) -> None:
        self.core = core
        self.timer_store = timer_store
        self.lobby = lobby
        self.desk = desk

    async def fire_gameless(self, timer: TimerRow) -> TimerOutcome | None:
        """A round's deadline or a re-pairing's clean-up; None for any other timer."""
        if timer.kind == TimerKind.ROUND_DEADLINE:
            notice = await self._deadline_passed(timer.data)
            if not await self.timer_store.delete_timer(timer.id):
                return TimerOutcome(None)  # handled elsewhere
            return TimerOutcome(None, overdue=notice)
        if timer.kind == TimerKind.REPAIR_CLEANUP:
            await self.end_replaced_games(timer.data)
            await self.timer_store.delete_timer(timer.id)
            return TimerOutcome(None)
        return None

    async def _deadline_passed(self, data: Mapping[str, Any]) -> OverdueTables | None:
        tid, round_no, attempt = data.get("tournament_id"), data.get("round"), data.get("attempt")
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (tid, round_no, attempt)):
            log.warning("a round deadline timer without its round (%r); nothing to tell", dict(data))
            return None
        assert isinstance(tid, int)
        try:
            info = await self.desk.tournament(tid)
        except NotFound:
            return None
        r = info.current
        if r is None or r.round != round_no or r.attempt != attempt:
            return None  # paired again since (its own deadline has its own timer), or gone
        tables = overdue(info, self.core.now())
        return OverdueTables(info, r, tables) if tables else None

    async def overdue_tables(self, tournament_id: int) -> tuple[Table, ...]:
        """The running round's tables still playing past the round's deadline."""
        return overdue(await self.desk.tournament(tournament_id), self.core.now())

    async def end_replaced_games(self, data: Mapping[str, Any]) -> int:
        """Cancel the games of a re-paired round's old tables that are still open; how many were."""
        games = data.get("games")
        moderator = data.get("moderator")
        reason = data.get("reason")
        if not isinstance(games, list) or not isinstance(moderator, int):
            log.warning("a re-pairing's clean-up timer without its games (%r); nothing to end", dict(data))
            return 0
        ended = 0
        for game_id in games:
            if not isinstance(game_id, int):
                continue
            try:
                info = await self.core.game(game_id)
                if not info.status.active:
                    continue
                await self.lobby.cancel(
                    game_id, moderator, moderator=True, reason=reason if isinstance(reason, str) else REPAIR_REASON
                )
                ended += 1
            except ServiceError:
                log.info("game #%d of a re-paired round was over already", game_id)
        return ended


def overdue(info: TournamentInfo, now: datetime) -> tuple[Table, ...]:
    """The running round's tables still playing at `now`, past the round's deadline (none if it has none)."""
    r = info.current
    if (
        info.status is not TournamentStatus.RUNNING
        or r is None
        or r.deadline is None
        or r.status is not RoundStatus.RUNNING
        or now < r.deadline
    ):
        return ()
    return tuple(t for t in r.tables if t.status is TableStatus.PLAYING)
