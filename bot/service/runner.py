"""One action's run: its moves, the autopilot's moves after it, and the result that tells everyone.

Every transaction that changes who must act also writes the game's clock and
replaces its timers (deadlines, reminders, autopilot turns; bot/service/clock.py),
so a crash can leave no timer stale or missing. Seats the autopilot plays move
at once after any action, each move its own transaction, each decision made
off the event loop at the game's level (`GameInfo.level_of`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from bot.service import clock as clocks
from bot.service.announce import private_events, public_events
from bot.service.core import ServiceCore
from bot.service.digest import digest
from bot.service.errors import RuleViolation
from bot.service.events import PrivateEvent, PublicEvent
from bot.service.game_end import GameEnd, GameEndListener, tell
from bot.service.kinds import Actor, Must, TimerKind
from bot.service.loading import LiveGame, status_of
from bot.service.member_settings import MemberSettings
from bot.service.models import GameInfo, Waiting, is_bot
from bot.service.plan_turns import play_planned_turn
from bot.service.results import ActionResult, ModLogEntry, PlannedTurn, PlayedFor, TurnNotice
from bot.service.settings import GuildConfig
from bot.service.thinking import Thinking
from bot.store import (
    ACTIVE,
    ALL_PLANS,
    ClockRow,
    GameChange,
    GameStatus,
    NewAudit,
    NewMove,
    NewTimer,
    SeatClockRow,
    SeatUpdate,
    Undo,
    Writes,
)
from bot.store.protocols import GameStore, HistoryStore, SettingsStore, TournamentStore
from engine import Game, GameError, Move
from engine.moves import move_to_json
from engine.snapshot import extend_digest, snapshot_text

log = logging.getLogger(__name__)

# A safety stop for one run of autopilot moves (a whole autopilot-only game takes 100-300);
# what is left is played when the autopilot timer the last move wrote fires.
MAX_AUTOPILOT_MOVES = 2000


@dataclass
class Run:
    """One action in progress: the game as committed so far and what to announce."""

    live: LiveGame
    clock: ClockRow
    waits_before: dict[int, str | None]  # each seat's wait before the action: whose turn came since
    stored_clock: ClockRow | None = None  # the clock as the store has it (None: unknown)
    public: list[PublicEvent] = field(default_factory=list)
    private: list[PrivateEvent] = field(default_factory=list)
    mod_log: list[ModLogEntry] = field(default_factory=list)
    played_for: list[PlayedFor] = field(default_factory=list)  # the autopilot's moves for members
    timers: list[NewTimer] | None = None  # as last written
    away: frozenset[int] = frozenset()  # waiting seats whose members are away: the autopilot plays them now
    away_of: LiveGame | None = None  # the state `away` was read for (by a step; the autopilot after it uses it)
    planned: list[PlannedTurn] = field(default_factory=list)  # members' planned turns played (or tried)
    plan_checked: LiveGame | None = None  # the state last asked whether a planned turn begins


class Runner:
    """Moves, the autopilot's run after them, non-move changes with their timers, and results."""

    def __init__(
        self,
        core: ServiceCore,
        game_store: GameStore,
        history_store: HistoryStore,
        settings_store: SettingsStore,
        tournament_store: TournamentStore,
        thinking: Thinking | None = None,
    ) -> None:
        self.core = core
        self.game_store = game_store
        self.history_store = history_store
        self.settings_store = settings_store
        self.tournament_store = tournament_store
        self.thinking = thinking if thinking is not None else Thinking()  # where the autopilot's decisions run
        # told when a game ends, in this order (bot/service/game_service.py registers them)
        self.end_listeners: list[GameEndListener] = []

    async def away_seats(self, info: GameInfo, game: Game | None) -> frozenset[int]:
        """The seats the game waits for whose members are away, in a casual game of a server that allows it: the
        autopilot plays them at once (bot/service/runner.py). A tournament's games never."""
        if game is None or not info.status.active:
            return frozenset()
        now = self.core.now()
        waiting = {
            seat: sitter.user_id
            for seat in map(game.seat, game.waiting_for())
            if not (sitter := info.seats[seat]).autopilot and sitter.user_id > 0
        }
        if not waiting:
            return frozenset()
        unknown = [u for u in waiting.values() if not self.core.present(u, now)]
        # one read for all of them, shared with the other games' asks of the moment
        stored = await self.core.member_reads.settings_of(unknown) if unknown else {}
        away: dict[int, MemberSettings] = {}
        for seat, user_id in waiting.items():
            if user_id not in stored:
                continue  # read as not away lately (core.NOT_AWAY_TRUSTED)
            settings = MemberSettings.of(user_id, stored[user_id])
            if settings.away_at(now):
                away[seat] = settings
            else:
                self.core.seen_present(user_id, now)
        if not away:
            return frozenset()
        most = GuildConfig.of(info.guild_id, await self.settings_store.guild_settings(info.guild_id)).away_seconds
        if most <= 0 or await self.tournament_store.table_of_game(info.id) is not None:
            return frozenset()
        return frozenset(seat for seat, settings in away.items() if settings.away_at(now, most))

    async def play_away_turns(self, user_id: int) -> list[ActionResult]:
        """A member just went away: in each of their running games that waits for them now (and lets the autopilot
        play for them), the autopilot plays at once. The results, to announce as any action's."""
        results = []
        for row in await self.game_store.games_of_user(user_id, ACTIVE):

            async def work(game_id: int = row.id) -> ActionResult | None:
                live = await self.core.live(game_id)
                run = self.run(live, await self.history_store.clock(game_id))
                if await self.autoplay(run) == 0:
                    return None
                return await self.result(run)

            try:
                result = await self.core.locked(row.id, work)
            except Exception:
                log.exception("game #%d: the autopilot could not play for user %d who went away", row.id, user_id)
                continue
            if result is not None:
                results.append(result)
        return results

    def run(self, live: LiveGame, clock: ClockRow) -> Run:
        """Begin an action on the game as committed; the clock is brought in line with it (a no-op if stored so)."""
        stored = clock
        if live.game is not None:
            clock = clocks.advance(live.info.clock, clock, live.game, self.core.now(), active=live.info.status.active)
        return Run(live, clock, {c.seat: c.wait for c in clock.seats}, stored)

    async def step(
        self,
        run: Run,
        move: Move,
        *,
        actor: Actor,
        user_id: int | None,
        claim_timer: int | None = None,
        audit: Sequence[NewAudit] = (),
        expected_clock: ClockRow | None = None,
        plans_cleared: Sequence[int] = (),
    ) -> None:
        """Apply one move and commit it with the clock and timers it leads to, in one transaction.

        `expected_clock`: the store refuses it (ClockChanged) unless its clock is this one. `plans_cleared`: seats
        whose plans go with it (a member's own move removes theirs).
        """
        info, game = run.live.info, run.live.game
        assert game is not None
        after = self.core.working_copy(game)
        try:
            events = after.apply(move)
        except GameError as exc:
            raise RuleViolation.of(exc) from None
        moves_hash = extend_digest(run.live.digest, move)
        status = status_of(after)
        now = self.core.now()
        clock = clocks.advance(info.clock, run.clock, after, now, active=status.active)
        away = await self.away_seats(info, after) if status.active else frozenset()
        flags = [s.autopilot or seat in away for seat, s in enumerate(info.seats)]
        timers: list[NewTimer] | None = clocks.timers(info.clock, clock, flags, now, active=status.active)
        if clock == run.stored_clock and not any(t.kind == TimerKind.AUTOPILOT for t in timers or ()):
            timers = None  # the same waits go on: the stored clock and timers still hold
        if actor is Actor.PLAYER:
            plans_cleared = (game.seat(move.player),)
        if not status.active:  # the game is over: no plan of it is kept
            plans_cleared = ALL_PLANS
        writes = Writes(None if timers is None else clock, timers, claim_timer, audit, (), plans_cleared)
        entry = NewMove(
            len(game.moves),
            move_to_json(move),
            user_id,
            status,
            snapshot_text(after, moves_hash),
            actor=actor,
            at=now,
            writes=writes,
            expected_clock=expected_clock,
        )
        version = await self.core.write(info.id, lambda: self.history_store.append_move(info.id, info.version, entry))
        self.core.known_plans.gone(info.id, plans_cleared)
        new_info = replace(info, version=version, status=status)
        run.live = LiveGame(new_info, after, moves_hash, (*run.live.actors, actor))
        self.core.remember(info.id, run.live)
        if status.active:
            run.away, run.away_of = away, run.live  # who is away once this move is made: read above, for `after`
        self.core.after_last_move.setdefault(info.id, {})[after.seat(move.player)] = after
        if clock.paused_at is None:
            self.core.committed_clocks[info.id] = clock  # committed: written with the move, or the same as stored
        run.clock = run.stored_clock = clock
        if timers is not None:
            run.timers = timers
        public, private = public_events(new_info, after, events, actor), private_events(new_info, after, events)
        run.public.extend(public)
        run.private.extend(private)
        user = new_info.user_of(move.player)
        if actor in (Actor.AUTOPILOT, Actor.TIMEOUT) and user is not None and not is_bot(user):
            mine = tuple(e for e in private if e.user_id == user)
            index = len(game.moves)
            run.played_for.append(PlayedFor(user, move.player, actor is Actor.TIMEOUT, tuple(public), mine, index))

    def _autopilot_seat(self, run: Run) -> int | None:
        """A waiting seat the autopilot must play now, if any (none while paused)."""
        info, game = run.live.info, run.live.game
        if game is None or not info.status.active or run.clock.paused_at is not None:
            return None
        for name in game.waiting_for():
            seat = game.seat(name)
            if clocks.needs_autopilot(info.clock, run.clock.seat(seat), info.seats[seat].autopilot or seat in run.away):
                return seat
        return None

    async def autoplay(
        self,
        run: Run,
        *,
        claim_timer: int | None = None,
        audit: Sequence[NewAudit] = (),
        after_action: bool = True,
    ) -> int:
        """Let the autopilot move while a seat it plays must act; each move is its own transaction.

        `claim_timer` and `audit` go with the first move. The number of moves made.
        After an action (`after_action`), a failure only stops the autopilot:
        the action itself is committed, and the autopilot timer committed with
        it lets the scheduler try again. From a timer, the failure is raised.
        """
        made = 0
        while made < MAX_AUTOPILOT_MOVES:
            if run.plan_checked is not run.live and (planned := await _planned_turn(self, run)):
                made += planned  # a member's planned turn first, when it begins
                continue
            if run.away_of is not run.live:
                run.away = await self.away_seats(run.live.info, run.live.game)
                run.away_of = run.live
            seat = self._autopilot_seat(run)
            if seat is None:
                return made
            game = run.live.game
            assert game is not None
            by_choice = run.live.info.seats[seat].autopilot or seat in run.away
            actor = Actor.AUTOPILOT if by_choice else Actor.TIMEOUT
            try:
                # the autopilot thinks off the event loop (strong: up to a few hundred ms; expert: up to its
                # time limit, in a worker process when the bot has one)
                level, started = run.live.info.level_of(seat), time.perf_counter()
                move = await self.thinking.move(game, game.names[seat], level)
                self.core.observer.decided(level.value, time.perf_counter() - started)
                await self.step(run, move, actor=actor, user_id=None, claim_timer=claim_timer, audit=audit)
            except Exception:
                if not after_action:
                    raise
                log.exception("game #%d: the autopilot could not move now; its timer tries again", run.live.info.id)
                return made
            claim_timer, audit = None, ()
            made += 1
        log.warning("game #%d: stopped after %d autopilot moves; its timer plays on", run.live.info.id, made)
        return made

    async def change(
        self,
        live: LiveGame,
        clock: ClockRow,
        *,
        audit: NewAudit | None = None,
        status: GameStatus | None = None,
        seats: Sequence[SeatUpdate] = (),
        undo: Undo | None = None,
        bump: bool = True,
        claim_timer: int | None = None,
        owed: Mapping[int, int] | None = None,
    ) -> list[NewTimer]:
        """Commit a change that is not a move, with the clock and the timers it leads to; the timers.

        `owed`: reminders that fell due while the bot was down, sent at once (`clock.timers`).
        """
        info = live.info
        away = await self.away_seats(info, live.game)
        flags = [s.autopilot or seat in away for seat, s in enumerate(info.seats)]
        for update in seats:
            if update.autopilot is not None:
                flags[update.seat] = update.autopilot or is_bot(update.user_id or info.seats[update.seat].user_id)
        active = (status or info.status).active
        timers = clocks.timers(info.clock, clock, flags, self.core.now(), active=active, owed=owed)
        # a moderator's undo, seat change or end: every planned turn of the game goes (it was set for another game)
        cleared = ALL_PLANS if undo is not None or seats or status is not None else ()
        writes = Writes(clock, timers, claim_timer, [audit] if audit else [], seats, cleared)
        change = GameChange(writes, status, undo, bump)
        await self.core.write(info.id, lambda: self.history_store.apply_change(info.id, info.version, change))
        self.core.known_plans.gone(info.id, cleared)
        if bump:
            self.core.forget(info.id)
        self.core.timers_written(timers)
        return timers

    async def game_ended(self, end: GameEnd) -> None:
        """Tell the end-of-game listeners (bot/service/game_end.py) that the game ended; the caller holds its lock."""
        await tell(self.end_listeners, end)

    async def result(self, run: Run) -> ActionResult:
        info, game = run.live.info, run.live.game
        if game is not None and game.finished and info.status is GameStatus.FINISHED:
            await self.game_ended(GameEnd(info, game, by_moderator=False))
        notices = self._notices(run)
        self.core.timers_written(run.timers)
        waiting = None if game is None else waiting_of(info, game)
        return ActionResult(
            info,
            tuple(run.public),
            tuple(run.private),
            waiting,
            tuple(notices),
            tuple(run.mod_log),
            tuple(run.played_for),
            tuple(run.planned),
        )

    def _notices(self, run: Run) -> list[TurnNotice]:
        """A "your turn" notice with the catch-up digest for each member whose turn came in this action."""
        info, game = run.live.info, run.live.game
        if game is None or not info.status.active or run.clock.paused_at is not None:
            return []
        fresh = [
            c
            for c in run.clock.seats
            if c.wait is not None
            and c.wait != "keep"  # starting tickets: the deal itself tells everyone
            and c.wait != run.waits_before.get(c.seat)
            and not info.seats[c.seat].autopilot
        ]
        return [self._notice(info, game, c, run.live.actors) for c in fresh]

    def _notice(self, info: GameInfo, game: Game, c: SeatClockRow, actors: Sequence[Actor]) -> TurnNotice:
        # the digest is worked out when the notice is read, from these committed games (never changed again)
        earlier = self.core.after_last_move.get(info.id, {}).get(c.seat)
        seat, moved_by = c.seat, tuple(actors)
        to_move = game.to_move()
        must = None if to_move is None else Must(to_move.must)
        return TurnNotice(
            info.seats[c.seat].user_id,
            clocks.deadline(info.clock, c),
            must,
            self.core.now(),
            build=lambda: digest(info, game, seat, moved_by, earlier),
        )


async def _planned_turn(runner: Runner, run: Run) -> int:
    """The moves of the planned turn of the member whose turn just began, played (bot/service/plan_turns.py)."""
    run.plan_checked = run.live  # after an action a failure is logged: the member plays the turn themselves

    async def step(move: Move, user_id: int, cleared: Sequence[int]) -> None:
        await runner.step(run, move, actor=Actor.PLAN, user_id=user_id, plans_cleared=cleared)

    stores = (runner.history_store, runner.settings_store, runner.tournament_store)
    return await play_planned_turn(run.live, stores, runner.core.known_plans, step, run.private.copy, run.planned)


def waiting_of(info: GameInfo, game: Game) -> Waiting | None:
    """Who the game waits for now, and what they must do (None once it is over)."""
    to_move = game.to_move()
    if to_move is None:
        return None
    players = tuple(game.waiting_for())
    # autopilot players (negative ids) are no one to ping
    users = tuple(u for u in (info.user_of(p) for p in players) if u is not None and not is_bot(u))
    return Waiting(Must(to_move.must), players, users)
