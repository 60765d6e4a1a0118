"""Playing a member's planned turn when it comes (bot/service/plan_eval.py works out what it does).

The runner asks after each action's moves, once for each state the game reaches (bot/service/runner.py,
`Runner.autoplay`): when a member's turn has just begun and they set a plan, its moves are made at once, as the
member's own (`Actor.PLAN`), the plan removed in the first move's transaction; a plan none of whose items applies
is removed on its own. Either way the member is told privately what it did (`PlannedTurn`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot.service.events import PrivateEvent
from bot.service.loading import LiveGame
from bot.service.plan_eval import Ending, evaluate, plan_of, turn_begins
from bot.service.results import PlannedTurn
from bot.store.protocols import HistoryStore
from engine import Move

# make one move of a plan for a member (`user_id`), removing these seats' plans in its transaction
PlanStep = Callable[[Move, int, Sequence[int]], Awaitable[None]]


async def play_planned_turn(
    live: LiveGame, plans: HistoryStore, step: PlanStep, events: Callable[[], Sequence[PrivateEvent]]
) -> PlannedTurn | None:
    """Play the plan of the member whose turn has just begun in `live`, if they set one; what it did.

    `events`: the private events of the action so far (the plan's own are told to its member with the report).
    """
    info, game = live.info, live.game
    to_move = None if game is None or not info.status.active else game.to_move()
    if game is None or to_move is None or not turn_begins(game, to_move.player):
        return None
    seat = game.seat(to_move.player)
    sitter = info.seats[seat]
    if sitter.autopilot or sitter.user_id <= 0:
        return None
    row = next((r for r in await plans.plans(info.id) if r.seat == seat), None)
    if row is None:
        return None
    if row.user_id != sitter.user_id:  # set by whoever sat here before: never played for someone else
        await plans.clear_plan(info.id, seat)
        return None
    items = plan_of(row.items)
    outcome = evaluate(game, to_move.player, items)
    if outcome.ending is Ending.NOT_NOW:
        return None
    if not outcome.moves:
        await plans.clear_plan(info.id, seat)
        return PlannedTurn(sitter.user_id, to_move.player, items, outcome)
    before = len(events())
    for index, move in enumerate(outcome.moves):
        await step(move, sitter.user_id, (seat,) if index == 0 else ())
    mine = tuple(e for e in events()[before:] if e.user_id == sitter.user_id)
    return PlannedTurn(sitter.user_id, to_move.player, items, outcome, mine)
