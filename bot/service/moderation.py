"""Moderation: pause and resume the clocks, give more time, change who plays a seat, take moves back, end a game.

Each action takes the moderator's user id and a reason, stores both in the
game's audit log, and returns an entry for the moderators' log channel.
Pause and extend change only the clock: they keep the game's version (still
checked, under the game's lock), so the buttons and menus players have open
stay good. A move, an undo, a seat change, an end, and a resume (which posts
the turn message again) raise it.
Whether someone is a moderator is the front end's question (bot/service/settings.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from bot.service import clock as clocks
from bot.service.audit import UNDONE_MOVES
from bot.service.checks import check_flag, check_id, check_name, clean_reason, seat_number
from bot.service.core import ServiceCore
from bot.service.errors import IdKind, InvalidInput, Why, WrongState
from bot.service.events import (
    AutopilotSet,
    Ended,
    Extended,
    Paused,
    PrivateEvent,
    PublicEvent,
    Replaced,
    Resumed,
    SeatGiven,
    SeatTaken,
    Undone,
)
from bot.service.game_end import GameEnd
from bot.service.kinds import AuditAction, EventKind
from bot.service.loading import LiveGame, status_of
from bot.service.models import is_bot
from bot.service.outline import UndoPreview, undo_outlines
from bot.service.reopen import CLOCK, clock_data
from bot.service.results import ActionResult, ModLogEntry
from bot.service.runner import Run, Runner, waiting_of
from bot.service.scores import final_scores
from bot.service.views import private_view
from bot.store import GameChange, GameStatus, NewAudit, SeatUpdate, Undo, Writes
from bot.store.protocols import HistoryStore
from engine import Game
from engine.moves import move_to_json
from engine.snapshot import moves_digest, snapshot_text

T = TypeVar("T")


def _undo_count(game: Game, moves: int) -> int:
    """The moves made so far, if `moves` of them can be taken back."""
    count = len(game.moves)
    if isinstance(moves, bool) or not isinstance(moves, int) or not 1 <= moves <= count:
        raise InvalidInput(Why.BAD_UNDO, {"count": count, "value": moves})
    return count


class ModerationService:
    def __init__(self, core: ServiceCore, history_store: HistoryStore, runner: Runner) -> None:
        self.core = core
        self.history_store = history_store
        self.runner = runner

    async def _moderate(
        self,
        game_id: int,
        moderator_user_id: int,
        reason: str,
        work: Callable[[LiveGame, Game, int, str], Awaitable[T]],
    ) -> T:
        """Run a moderator action on a started, active game under its lock."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        reason = clean_reason(reason)

        async def locked() -> T:
            live = await self.core.live(game_id)
            if not live.info.status.active:
                raise WrongState(Why.GAME_IS, {"status": live.info.status})
            if live.game is None:
                raise WrongState(Why.NOT_STARTED)
            return await work(live, live.game, moderator_user_id, reason)

        return await self.core.act(game_id, locked)

    async def pause(self, game_id: int, moderator_user_id: int, reason: str) -> ActionResult:
        """Stop the clocks: no deadlines or reminders, no moves (the autopilot waits too) until `resume`."""

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            run = self.runner.run(live, await self.history_store.clock(game_id))
            if run.clock.paused_at is not None:
                raise WrongState(Why.ALREADY_PAUSED)
            now = self.core.now()
            clock = replace(run.clock, paused_at=now, paused_by=mod)
            # the game itself does not change: open menus and buttons stay good (a move waits for `resume`)
            await self.runner.change(live, clock, audit=NewAudit(mod, AuditAction.PAUSE, {}, why, now), bump=False)
            info = await self.core.fresh_info(game_id)
            event = PublicEvent(EventKind.PAUSED, Paused(why), None, mod)
            return ActionResult(info, (event,), mod_log=(ModLogEntry(info, AuditAction.PAUSE, mod, why),))

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def resume(self, game_id: int, moderator_user_id: int, reason: str) -> ActionResult:
        """Start the clocks again; every deadline moves on by the time the game was paused."""

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            stored = await self.history_store.clock(game_id)
            if stored.paused_at is None:
                raise WrongState(Why.NOT_PAUSED)
            now = self.core.now()
            paused_for = (now - stored.paused_at).total_seconds()
            clock = clocks.resumed(self.runner.run(live, stored).clock, now)
            details = {"paused_seconds": round(paused_for, 3)}
            audit = NewAudit(mod, AuditAction.RESUME, details, why, now)
            await self.runner.change(
                live, clock, audit=audit
            )  # the turn message is posted again: the old one goes stale
            run = self.runner.run(await self.core.live(game_id), clock)
            run.waits_before = {}  # everyone who must act now hears it
            run.public.append(PublicEvent(EventKind.RESUMED, Resumed(why, paused_for), None, mod))
            run.mod_log.append(ModLogEntry(run.live.info, AuditAction.RESUME, mod, why))
            await self.runner.autoplay(run)
            return await self.runner.result(run)

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def extend(
        self, game_id: int, moderator_user_id: int, seconds: int, reason: str, seat: int | None = None
    ) -> ActionResult:
        """Move a deadline `seconds` past the later of the deadline and now: of `seat`, or of everyone who must act.

        A player who ran out of time under the "wait" policy gets a running clock again.
        """

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            info = live.info
            if not info.clock.enabled:
                raise WrongState(Why.NO_CLOCK)
            if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 < seconds <= clocks.MAX_SECONDS:
                raise InvalidInput(Why.BAD_EXTENSION, {"high": clocks.MAX_SECONDS, "value": seconds})
            clock = self.runner.run(live, await self.history_store.clock(game_id)).clock
            if seat is None:
                targets = [c.seat for c in clock.seats if c.wait is not None and not info.seats[c.seat].autopilot]
            else:
                seat_number(info, seat)
                if clock.seat(seat).wait is None:
                    raise WrongState(Why.NOT_TO_MOVE, {"player": game.names[seat]})
                targets = [seat]
            if not targets:
                raise WrongState(Why.NOBODY_TO_EXTEND)
            now = self.core.now()
            for target in targets:
                clock = clocks.extended(info.clock, clock, target, seconds, now)
            names = [game.names[t] for t in targets]
            details = {"seconds": seconds, "seats": targets, "player": ", ".join(names)}
            audit = NewAudit(mod, AuditAction.EXTEND, details, why, now)
            await self.runner.change(live, clock, audit=audit, bump=False)
            facts = Extended(seconds, tuple(names), why)
            event = PublicEvent(EventKind.EXTENDED, facts, None, mod)
            line = ModLogEntry(info, AuditAction.EXTEND, mod, why, facts)
            return ActionResult(info, (event,), (), waiting_of(info, game), (), (line,))

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def replace(
        self,
        game_id: int,
        moderator_user_id: int,
        seat: int,
        new_user_id: int,
        new_display_name: str,
        reason: str,
    ) -> ActionResult:
        """Give a seat to another member: they get its private view and may act; the old player no longer.

        The player's name in the engine and the record stays, so the record
        still replays; the record's `conductor` part notes the change. If the
        seat is to move, the new player gets a fresh turn.
        """
        new_user_id = check_id(new_user_id, IdKind.NEW_PLAYER)
        new_name = check_name(new_display_name)

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            info = live.info
            old = info.seats[seat_number(info, seat)]
            assert old.player is not None
            if info.seat_of(new_user_id) is not None:
                raise WrongState(Why.ALREADY_PLAYS)
            now = self.core.now()
            stored = self.runner.run(live, await self.history_store.clock(game_id)).clock
            clock = clocks.advance(info.clock, stored, game, now, restart=[seat])
            clock = clocks.with_seat(clock, replace(clock.seat(seat), timeouts=0))
            details = {
                "seat": seat,
                "player": old.player,
                "from_user_id": old.user_id,
                "from_name": old.display_name,
                "to_user_id": new_user_id,
                "to_name": new_name,
                "after_moves": len(game.moves),  # where the change comes among the moves (engine/seat_changes.py)
            }
            update = SeatUpdate(seat, new_user_id, new_name, autopilot=False)
            audit = NewAudit(mod, AuditAction.REPLACE, details, why, now)
            await self.runner.change(live, clock, audit=audit, seats=[update])
            after = await self.core.live(game_id)
            info = after.info
            facts = Replaced(seat, old.player, old.user_id, old.display_name, new_user_id, new_name, why)
            run = Run(after, clock, {c.seat: c.wait for c in stored.seats if c.seat != seat})
            run.public.append(PublicEvent(EventKind.REPLACED, facts, old.player, new_user_id))
            given = SeatGiven(seat, old.player, private_view(info, game, seat))
            run.private.append(PrivateEvent(new_user_id, EventKind.SEAT_GIVEN, given))
            if not is_bot(old.user_id):
                taken = SeatTaken(seat, old.player, new_name)
                run.private.append(PrivateEvent(old.user_id, EventKind.SEAT_TAKEN, taken))
            run.mod_log.append(ModLogEntry(info, AuditAction.REPLACE, mod, why, facts))
            return await self.runner.result(run)

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def set_autopilot(
        self, game_id: int, seat: int, on: bool = True, *, moderator_user_id: int, reason: str
    ) -> ActionResult:
        """Hand a seat to the autopilot (it moves at once whenever the seat must act), or give it back (`on=False`)."""

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            info = live.info
            sitter = info.seats[seat_number(info, seat)]
            assert sitter.player is not None
            check_flag(on, "on")
            if sitter.bot and not on:
                raise WrongState(Why.BOT_HAS_NO_MEMBER)
            if sitter.autopilot == on:
                raise WrongState(Why.ALREADY_AUTOPILOT if on else Why.NOT_AUTOPILOT, {"player": sitter.player})
            now = self.core.now()
            stored = self.runner.run(live, await self.history_store.clock(game_id)).clock
            clock = stored if on else clocks.advance(info.clock, stored, game, now, restart=[seat])
            details = {"seat": seat, "player": sitter.player, "user_id": sitter.user_id, "on": on}
            details["after_moves"] = len(game.moves)  # where the change comes among the moves
            audit = NewAudit(mod, AuditAction.AUTOPILOT, details, why, now)
            await self.runner.change(live, clock, audit=audit, seats=[SeatUpdate(seat, autopilot=on)])
            run = self.runner.run(await self.core.live(game_id), clock)
            run.waits_before = {c.seat: c.wait for c in stored.seats if on or c.seat != seat}
            facts = AutopilotSet(seat, sitter.player, sitter.user_id, sitter.display_name, on, why)
            run.public.append(PublicEvent(EventKind.AUTOPILOT, facts, sitter.player, sitter.user_id))
            run.mod_log.append(ModLogEntry(run.live.info, AuditAction.AUTOPILOT, mod, why, facts))
            await self.runner.autoplay(run)
            return await self.runner.result(run)

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def undo_preview(self, game_id: int, moderator_user_id: int, moves: int) -> UndoPreview:
        """What `undo` would take back, changing nothing: each move, and the hidden cards or tickets it showed."""

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> UndoPreview:
            count = _undo_count(game, moves)
            return UndoPreview(game_id, live.info.version, moves, count, undo_outlines(game, moves))

        return await self._moderate(game_id, moderator_user_id, "", work)

    async def undo(
        self, game_id: int, moderator_user_id: int, moves: int, reason: str, *, version: int | None = None
    ) -> ActionResult:
        """Take back the last `moves` moves: the game is exactly as it was before them.

        The moves taken back stay in the audit (`log`, table undone_moves);
        loading and the record use only the moves that count. Whoever must act
        then gets a fresh turn. If an autopilot seat is to move, it moves at
        once (unless the game is paused): pause first to undo past it.
        `version`: the game's version when the moderator saw the preview; refused if the game changed since.
        """

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            info = live.info
            count = _undo_count(game, moves)
            if version is not None and version != info.version:
                raise WrongState(Why.UNDO_OUTDATED)
            keep = count - moves
            earlier = game.replay_until(keep)
            now = self.core.now()
            stored = self.runner.run(live, await self.history_store.clock(game_id)).clock
            clock = clocks.advance(info.clock, stored, earlier, now, restart=range(len(game.names)))
            undone = [move_to_json(m) for m in game.moves[keep:]]
            details = {"moves": moves, "from": count, "to": keep, UNDONE_MOVES: undone}
            snapshot = snapshot_text(earlier, moves_digest(earlier.moves))
            audit = NewAudit(mod, AuditAction.UNDO, details, why, now)
            await self.runner.change(live, clock, audit=audit, status=status_of(earlier), undo=Undo(keep, snapshot))
            run = self.runner.run(await self.core.live(game_id), clock)
            run.waits_before = {}
            to_move = earlier.to_move()
            facts = Undone(moves, count, keep, None if to_move is None else to_move.player, why)
            run.public.append(PublicEvent(EventKind.UNDONE, facts, None, mod))
            run.mod_log.append(ModLogEntry(run.live.info, AuditAction.UNDO, mod, why, facts))
            await self.runner.autoplay(run)
            return await self.runner.result(run)

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def end(self, game_id: int, moderator_user_id: int, score: bool, reason: str) -> ActionResult:
        """End the game now: `score` True scores it as it stands (finished, with winners); False abandons it
        (cancelled, no result). A lobby can only be abandoned. `reopen` can undo an abandon for a while; a scored
        end shows every player's tickets, so it is final (bot/service/finality.py)."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)
        check_flag(score, "score")

        async def work() -> ActionResult:
            live = await self.core.live(game_id)
            info, game = live.info, live.game
            if not info.status.active:
                raise WrongState(Why.GAME_IS, {"status": info.status})
            if game is None and score:
                raise WrongState(Why.NOTHING_TO_SCORE)
            now = self.core.now()
            status = GameStatus.FINISHED if score else GameStatus.CANCELLED
            facts = Ended(score, why)
            events = [PublicEvent(EventKind.ENDED, facts)]
            details: dict[str, Any] = {"score": score}
            if score:
                assert game is not None
                scores = final_scores(info, game, reveal_seed=True)  # final: it cannot be reopened (finality.py)
                details["winners"] = list(scores.winners)
                details["totals"] = {r.player: r.total for r in scores.scores}
                events.append(PublicEvent(EventKind.FINAL_SCORES, scores))
            stored = None if game is None else self.runner.run(live, await self.history_store.clock(game_id)).clock
            if stored is not None:
                details[CLOCK] = clock_data(stored)  # for `reopen`
            audit = NewAudit(moderator_user_id, AuditAction.END, details, why, now)
            if game is None or stored is None:
                change = GameChange(Writes(timers=[], audit=[audit]), status=status)
                await self.core.write(game_id, lambda: self.history_store.apply_change(game_id, info.version, change))
            else:
                clock = clocks.advance(info.clock, stored, game, now, active=False)
                await self.runner.change(live, clock, audit=audit, status=status)
            after = await self.core.fresh_info(game_id)
            await self.runner.game_ended(GameEnd(after, game, by_moderator=True))
            line = ModLogEntry(after, AuditAction.END, moderator_user_id, why, facts)
            return ActionResult(after, tuple(events), mod_log=(line,))

        return await self.core.act(game_id, work)
