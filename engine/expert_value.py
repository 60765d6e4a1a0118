"""What a position is worth to a seat: exactly at the end (`final_value`), guessed before it (`estimate`)."""

from __future__ import annotations

import math

from engine.expert_search import (
    CARD_POINTS,
    PLAN_ROUTE_WEIGHT,
    SPARE_TRAIN_POINTS,
    TICKET_WEIGHT,
    WIN_BONUS,
    WIN_SCALE,
)
from engine.game import Game
from engine.scoring import winners
from engine.strong import Seat, goal


def final_value(world: Game, seat: int) -> float:
    """The seat's value at the end: its margin over the best other player, plus its share of a win."""
    scores = world.score()
    totals = [sc.total for sc in scores]
    mine = totals[seat]
    best_other = max(t for i, t in enumerate(totals) if i != seat)
    value = float(mine - best_other)
    if world.finished:
        won = winners(scores, world.rules.longest_bonus > 0)  # `Game.winners`, from the scores at hand
        if world.names[seat] in won:
            value += WIN_BONUS / len(won)
    return value


def estimate(game: Game, seat: int) -> float:
    """The seat's value guessed from the position: its guessed final margin over the best other player's,
    plus a guessed share of a win; a finished game's value exactly.

    Every player's final score is guessed alike, from their own tickets and hand as the strong autopilot
    plans them (in a sampled world the others' are the world's), so it reads nothing the game does not hold.
    """
    if game.finished:
        return final_value(game, seat)
    s = game.state
    scores = game.score()
    n = len(s.players)
    start = game.trains_option or game.rules.trains
    end = game.rules.end_game_trains
    rates = []
    for i, p in enumerate(s.players):
        taken = s.turn // n + (1 if i < s.turn % n else 0)
        rates.append(((start - p.trains) + 1.1 * 6) / (taken + 6))
    rounds = 0.0
    if s.final_turns is None:
        rounds = min(max(p.trains - end, 0) / max(r, 0.3) for p, r in zip(s.players, rates, strict=True)) + 1
    points = game.rules.route_points
    guessed = []
    for i, p in enumerate(s.players):
        me = Seat(game, p.name)
        plan = goal(me)
        chance = me.success(plan, me.turns_left()) if plan.tickets else 1.0
        tickets = sum(game.board.tickets[t].best + game.board.tickets[t].worst for t in plan.tickets)
        routes = sum(points.get(game.board.routes[r].length, 0) for r in plan.routes)
        spare = max(min(p.trains - plan.trains, rounds * rates[i] - plan.trains), 0.0)
        later = TICKET_WEIGHT * chance * tickets + PLAN_ROUTE_WEIGHT * routes + SPARE_TRAIN_POINTS * spare
        guessed.append(scores[i].total + later + CARD_POINTS * p.cards)
    margin = guessed[seat] - max(g for i, g in enumerate(guessed) if i != seat)
    return margin + WIN_BONUS / (1 + math.exp(-margin / WIN_SCALE))
