"""Playing a member's planned turn when it comes (bot/service/plan_eval.py works out what it does).

The runner asks after each action's moves, once for each state the game reaches (bot/service/runner.py,
`Runner.autoplay`): when a member's turn has just begun and they set a plan, its moves are made at once, as the
member's own (`Actor.PLAN`), the plan removed in the first move's transaction; a plan none of whose items applies
is removed on its own. Either way the member is told privately what it did (`PlannedTurn`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.service.events import PrivateEvent
from bot.service.known_plans import KnownPlans
from bot.service.loading import LiveGame
from bot.service.plan_eval import Ending, evaluate, plan_of, turn_begins
from bot.service.results import PlannedTurn
from bot.service.settings import GuildConfig
from bot.store.protocols import HistoryStore, SettingsStore, TournamentStore
from engine import Move

log = logging.getLogger(__name__)

# make one move of a plan for a member (`user_id`), removing these seats' plans in its transaction
PlanStep = Callable[[Move, int, Sequence[int]], Awaitable[None]]


async def plans_off(settings: SettingsStore, tournaments: TournamentStore, guild_id: int, game_id: int) -> bool | None:
    """None if the game's server (and its tournament, for a table) allows plans; else whether a tournament is what
    turned them off."""
    if not GuildConfig.of(guild_id, await settings.guild_settings(guild_id)).plans:
        return False
    table = await tournaments.table_of_game(game_id)
    if table is not None:
        tournament = await tournaments.tournament(table.tournament_id)
        if tournament is not None and tournament.settings.get("plans") is False:
            return True
    return None


async def play_planned_turn(
    live: LiveGame,
    stores: tuple[HistoryStore, SettingsStore, TournamentStore],
    known: KnownPlans,
    step: PlanStep,
    events: Callable[[], Sequence[PrivateEvent]],
    told: list[PlannedTurn],
) -> int:
    """`planned_turn`, its report added to `told`; the moves it made. A failure is logged and stops the plan there,
    never the action nor the autopilot's moves after it: the member plays the turn themselves."""
    try:
        planned = await planned_turn(live, stores, known, step, events)
    except Exception:
        log.exception("game #%d: a planned turn could not be played", live.info.id)
        return 0
    if planned is None:
        return 0
    told.append(planned)
    return len(planned.outcome.moves)


async def planned_turn(
    live: LiveGame,
    stores: tuple[HistoryStore, SettingsStore, TournamentStore],
    known: KnownPlans,
    step: PlanStep,
    events: Callable[[], Sequence[PrivateEvent]],
) -> PlannedTurn | None:
    """Play the plan of the member whose turn has just begun in `live`, if they set one; what it did. A plan set
    before the server or the tournament turned plans off is not played (it stays until the member moves).

    `events`: the private events of the action so far (the plan's own are told to its member with the report).
    """
    plans, settings, tournaments = stores
    info, game = live.info, live.game
    to_move = None if game is None or not info.status.active else game.to_move()
    if game is None or to_move is None or not turn_begins(game, to_move.player):
        return None
    seat = game.seat(to_move.player)
    sitter = info.seats[seat]
    if sitter.autopilot or sitter.user_id <= 0:
        return None
    if not known.started:
        known.start(await plans.planned_games())  # once in the process's life
    seats = known.seats(info.id)
    if seats is not None and seat not in seats:
        return None  # known to have no plan: nothing to read (a turn begins at every other action)
    rows = await plans.plans(info.id)
    known.learn(info.id, (r.seat for r in rows))
    row = next((r for r in rows if r.seat == seat), None)
    if row is None:
        return None
    if row.user_id != sitter.user_id:  # set by whoever sat here before: never played for someone else
        await plans.clear_plan(info.id, seat)
        known.gone(info.id, (seat,))
        return None
    if await plans_off(settings, tournaments, info.guild_id, info.id) is not None:
        return None
    items = plan_of(row.items)
    outcome = evaluate(game, to_move.player, items)
    if outcome.ending is Ending.NOT_NOW:
        return None
    if not outcome.moves:
        await plans.clear_plan(info.id, seat)
        known.gone(info.id, (seat,))
        return PlannedTurn(sitter.user_id, to_move.player, items, outcome)
    before = len(events())
    for index, move in enumerate(outcome.moves):
        await step(move, sitter.user_id, (seat,) if index == 0 else ())
    mine = tuple(e for e in events()[before:] if e.user_id == sitter.user_id)
    return PlannedTurn(sitter.user_id, to_move.player, items, outcome, mine)
