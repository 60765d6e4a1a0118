"""Reopening a game a moderator ended: it runs again exactly as it was, for a while after the end.

Only a game whose secrets were never shown: not one scored as it stood, not a
tournament's table the tournament counted (bot/service/finality.py).

`end` keeps the clock as it stood in its audit entry; `reopen` puts it back
with every running wait moved on by the time the game was over (as after an
outage), so that time counts against no one. The moves, the seats and their
autopilot flags were never touched by the end.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.service import clock as clocks
from bot.service.checks import check_id, clean_reason
from bot.service.core import ServiceCore
from bot.service.errors import IdKind
from bot.service.events import PublicEvent, Reopened
from bot.service.finality import REOPEN_SECONDS, Finality, last_end
from bot.service.kinds import AuditAction, EventKind
from bot.service.loading import status_of
from bot.service.results import ActionResult, ModLogEntry
from bot.service.runner import Runner
from bot.store import ClockRow, GameChange, GameStatus, NewAudit, SeatClockRow, Writes
from bot.store.protocols import HistoryStore

__all__ = ["CLOCK", "REOPEN_SECONDS", "ReopenService", "clock_data", "clock_of", "last_end"]

CLOCK = "clock"  # the key of the clock in an end's audit details


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _moment(text: Any) -> datetime | None:
    return None if text is None else datetime.fromisoformat(str(text))


def clock_data(clock: ClockRow) -> dict[str, Any]:
    """The clock as JSON data, for an end's audit entry."""
    seats = [
        {
            "seat": c.seat,
            "wait": c.wait,
            "since": _time(c.since),
            "extra_seconds": c.extra_seconds,
            "reminded": c.reminded,
            "timed_out": c.timed_out,
            "reserve_used": c.reserve_used,
            "timeouts": c.timeouts,
        }
        for c in clock.seats
    ]
    return {"paused_at": _time(clock.paused_at), "paused_by": clock.paused_by, "seats": seats}


def clock_of(game_id: int, data: dict[str, Any]) -> ClockRow:
    """The clock kept by `clock_data`."""
    seats = tuple(
        SeatClockRow(
            int(s["seat"]),
            s["wait"],
            _moment(s["since"]),
            float(s["extra_seconds"]),
            int(s["reminded"]),
            bool(s["timed_out"]),
            float(s["reserve_used"]),
            int(s["timeouts"]),
        )
        for s in data["seats"]
    )
    return ClockRow(game_id, _moment(data["paused_at"]), data["paused_by"], seats)


class ReopenService:
    def __init__(self, core: ServiceCore, history_store: HistoryStore, runner: Runner, finality: Finality) -> None:
        self.core = core
        self.history_store = history_store
        self.runner = runner
        self.finality = finality

    async def reopen(self, game_id: int, moderator_user_id: int, reason: str) -> ActionResult:
        """Run a game a moderator ended again, exactly as it was, within REOPEN_SECONDS of the end.

        Refused if the game was not ended by a moderator, if that end scored it (every player's tickets were
        shown), if a tournament counted its table, if it is too late, or if a newer game was opened in its
        channel since. Whoever must act gets a
        fresh "your turn" note; their clock goes on where it stopped.
        """
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work() -> ActionResult:
            live = await self.core.live(game_id)
            info, game = live.info, live.game
            reopenable = await self.finality.reopenable(info)
            ended, over_for = reopenable.ended, reopenable.over_for
            now = self.core.now()
            facts = Reopened(over_for.total_seconds(), why)
            event = PublicEvent(EventKind.REOPENED, facts, None, moderator_user_id)
            details = {"ended_seconds": round(over_for.total_seconds(), 3)}
            audit = NewAudit(moderator_user_id, AuditAction.REOPEN, details, why, now)
            if game is None:
                change = GameChange(Writes(audit=[audit]), status=GameStatus.LOBBY)
                await self.core.write(game_id, lambda: self.history_store.apply_change(game_id, info.version, change))
                after = await self.core.fresh_info(game_id)
                line = ModLogEntry(after, AuditAction.REOPEN, moderator_user_id, why, facts)
                return ActionResult(after, (event,), mod_log=(line,))
            kept = ended.details.get(CLOCK)
            if isinstance(kept, dict):
                clock = clocks.forgiven(clock_of(game_id, kept), over_for)
            else:  # ended before ends kept the clock: whoever must act starts a fresh turn
                stored = await self.history_store.clock(game_id)
                clock = clocks.advance(info.clock, stored, game, now, restart=range(len(game.names)))
            await self.runner.change(live, clock, audit=audit, status=status_of(game))
            run = self.runner.run(await self.core.live(game_id), clock)
            run.waits_before = {}  # everyone who must act now hears it
            run.public.append(event)
            run.mod_log.append(ModLogEntry(run.live.info, AuditAction.REOPEN, moderator_user_id, why, facts))
            await self.runner.autoplay(run)
            return await self.runner.result(run)

        return await self.core.act(game_id, work)
