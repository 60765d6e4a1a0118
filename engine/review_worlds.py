"""One spot of a review weighed in worlds its player could imagine (see engine/review.py).

The worlds are the expert's (engine/expert_worlds.py): everything the
mover's seat cannot see dealt anew from what it cannot see, read as the
table reads (the cards seen going into a hand stay there, the other players'
tickets weighted by their network). In each world every move weighed (the
expert's candidates and the move played) is played, then the game is played
out by the strong autopilot in every seat (the mover's tuned as the expert
tunes its own), as the expert's search does. The same worlds serve every move,
so the moves are compared world by world.

A world's result for the mover is a softened win: a softmax of the final
scores (`soft_win`, `CHANCE_SCALE` points, plus `CHANCE_SPREAD` more the
earlier the spot), so a close loss counts for something; its mean over the
worlds is the mover's chance of winning after that move. A handful of worlds
is noisy, and a game's figures add up dozens of moves, so a difference (the
move played against the expert's, a draw against a random one) is shrunk by
its own noise (`shrunk`): the two chances shown are moved together around
their middle until their difference is the shrunk one.

Luck: a move that drew what its player could not see (a blind draw, the card
refilling the face-up row, tickets, a tunnel's cards) is played in each world
twice: as the world deals it (a random draw: the average) and with what the
game really dealt forced to the top of the world's deck (the world otherwise
the same: a card the world had put in another hand is swapped with the
deck's). The mean difference is the move's luck. The opening deal is weighed
against the average deal: the mover's fallback keep in the worlds dealt from
the real deal, against strong's keep in the same worlds with the mover's own hand and
offer dealt anew too.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence

from engine.errors import GameError
from engine.expert import Share, choose_shared, own_tuning, sample_world
from engine.expert_value import final_value
from engine.expert_worlds import ticket_leanings
from engine.game import Game
from engine.moves import Claim, Keep, Move
from engine.review_models import (
    CHANCE_SCALE,
    CHANCE_SPREAD,
    MAX_PLAYOUT_MOVES,
    Chance,
    ReviewPlan,
    Spot,
    SpotReview,
)
from engine.strong import DEFAULT_TUNING, choose_strong


def soft_win(totals: Sequence[int], scale: float = CHANCE_SCALE) -> tuple[float, ...]:
    """Each seat's softened share of a win with these final totals (sums to 1): a softmax of `scale` points."""
    top = max(totals)
    weights = [math.exp((t - top) / scale) for t in totals]
    whole = sum(weights)
    return tuple(w / whole for w in weights)


def alike(a: Move, b: Move) -> bool:
    """The same move as a review shows it: a claim of the same route however it is paid, a keep of the same
    tickets in any order."""
    if a == b:
        return True
    if isinstance(a, Claim) and isinstance(b, Claim):
        return (a.player, frozenset((a.a, a.b)), a.route, a.souvenir) == (
            b.player,
            frozenset((b.a, b.b)),
            b.route,
            b.souvenir,
        )
    if isinstance(a, Keep) and isinstance(b, Keep):
        return a.player == b.player and Counter(a.tickets) == Counter(b.tickets)
    return False


def rollout(world: Game, seat: int) -> tuple[float, list[int]]:
    """Play the world out as the expert's search does: (the expert's value for the seat, the final totals)."""
    own = world.names[seat]
    tuning = own_tuning(world)
    played = 0
    while not world.finished and played < MAX_PLAYOUT_MOVES:
        who = world.waiting_for()[0]
        world.apply(choose_strong(world, who, tuning if who == own else DEFAULT_TUNING))
        played += 1
    return final_value(world, seat), [sc.total for sc in world.score()]


def forced(world: Game, spot: Spot) -> Game | None:
    """The world with what the game really dealt at this spot on top of its decks (a card or ticket the world
    had elsewhere, out of the mover's sight, swapped with one of the deck's); None if it cannot be."""
    out = world.copy()
    s = out.state
    rest = list(s.piles.deck)
    for card in spot.cards:
        if card in rest:
            rest.remove(card)
            continue
        holder = next((p for i, p in enumerate(s.players) if i != spot.seat and p.hand[card] > 0), None)
        if holder is None or not rest:
            return None
        holder.hand[card] -= 1
        holder.hand[rest.pop()] += 1
        holder.hand = +holder.hand
    s.piles.deck = list(spot.cards) + rest
    pool = list(s.ticket_deck)
    for ticket in spot.tickets:
        if ticket in pool:
            pool.remove(ticket)
            continue
        if not pool:
            return None
        swap = pool.pop()
        if ticket in s.removed_tickets:
            s.removed_tickets[s.removed_tickets.index(ticket)] = swap
            continue
        holder = next((p for i, p in enumerate(s.players) if i != spot.seat and ticket in p.tickets), None)
        if holder is None:
            return None
        holder.tickets[holder.tickets.index(ticket)] = swap
    s.ticket_deck = list(spot.tickets) + pool
    return out


def weigh_spot(before: Game, spot: Spot, plan: ReviewPlan, deadline: float | None = None) -> SpotReview:
    """Weigh one spot in `plan.worlds` worlds (fewer past `deadline`, a `time.monotonic()` reading, once one is
    done). `before` is the game just before the spot's move (not changed)."""
    search = plan.search
    name = before.names[spot.seat]
    seat = spot.seat
    moves = list(spot.candidates)
    played_at = next((i for i, m in enumerate(moves) if m == spot.played), None)
    if played_at is None:
        moves.append(spot.played)
        played_at = len(moves) - 1
    scale = CHANCE_SCALE + CHANCE_SPREAD * plan.left(spot.index) / max(1, plan.total_moves)
    inferring = search.expert.infer is not None and len(before.names) <= search.expert.infer_players
    leanings = ticket_leanings(before, name) if inferring else None
    rng = random.Random(f"{search.seed}:{spot.index}:{name}")
    values: list[list[float]] = [[] for _ in moves]
    wins: list[list[float]] = [[] for _ in moves]
    lucky: list[float] = []
    paths: dict[tuple[int, tuple[float | None, ...]], tuple[float, list[int], int]] = {}
    for k in range(plan.worlds):
        if k and deadline is not None and time.monotonic() > deadline:
            break
        label = f"{search.seed}:{spot.index}:{k}"
        world = sample_world(before, name, rng, label, leanings, search.expert.infer or 0.0)
        world._paths_kept = paths  # strong's ticket paths, shared by the worlds as the expert's search does
        results: list[tuple[float, float]] = []
        for move in moves:
            trial = world.copy()
            try:
                trial.apply(move)
            except GameError:  # not legal in this world (it should always be): the world does not count
                break
            value, totals = rollout(trial, seat)
            results.append((value, soft_win(totals, scale)[seat]))
        if len(results) < len(moves):
            continue
        for i, (value, win) in enumerate(results):
            values[i].append(value)
            wins[i].append(win)
        variant = _variant(before, world, spot, rng, label)
        if variant is not None:
            other = soft_win(rollout(variant, seat)[1], scale)[seat]
            if spot.chance is Chance.DEAL:  # the real deal (the fallback keep) against the average deal
                lucky.append(results[0][1] - other)
            else:  # what was really drawn against the world's random draw
                lucky.append(other - results[played_at][1])
    done = len(wins[0])
    expert = spot.played
    if spot.decision:
        expert = spot.candidates[0]
        if spot.searched and done:
            gains = [[v - v0 for v, v0 in zip(values[i], values[0], strict=True)] for i in range(len(spot.candidates))]
            expert = choose_shared([Share(list(spot.candidates), gains)], len(before.names), search.expert)
        if alike(expert, spot.played):
            expert = spot.played
    win_played = _mean(wins[played_at])
    win_expert = _mean(wins[moves.index(expert)]) if spot.decision else None
    if win_played is not None and win_expert is not None:  # the difference shrunk by its noise, around the middle
        middle = (win_played + win_expert) / 2
        gain = shrunk([p - e for p, e in zip(wins[played_at], wins[moves.index(expert)], strict=True)])
        win_played, win_expert = middle + gain / 2, middle - gain / 2
    luck = shrunk(lucky) if spot.chance is not None and lucky else None
    return SpotReview(
        spot.number,
        seat,
        spot.index,
        name,
        spot.played,
        expert,
        spot.decision,
        spot.chance,
        done,
        win_expert,
        win_played,
        luck,
    )


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def shrunk(differences: Sequence[float]) -> float:
    """The mean of the worlds' differences shrunk toward 0 by its own noise (positive-part James-Stein: the mean
    times 1 - se²/mean², at least 0): a difference well beyond its standard error keeps nearly all of it, one
    within it (noise, most likely) counts for little or nothing; one world alone says nothing (0)."""
    n = len(differences)
    if n < 2:
        return 0.0
    mean = sum(differences) / n
    if mean == 0:
        return 0.0
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    return mean * max(0.0, 1.0 - variance / n / mean**2)


def _variant(before: Game, world: Game, spot: Spot, rng: random.Random, label: str) -> Game | None:
    """The world of the spot's luck, its move played: what the game really drew forced on top (the average deal
    for the opening keep, strong's keep played in it); None when the spot has no chance or it cannot be."""
    if spot.chance is None:
        return None
    if spot.chance is Chance.DEAL:
        other = before.names[(spot.seat + 1) % len(before.names)]
        average = sample_world(world, other, rng, f"{label}:deal")  # the world with the mover's own deal dealt anew
        name = before.names[spot.seat]
        try:
            average.apply(choose_strong(average, name, own_tuning(average)))
        except GameError:
            return None
        return average
    variant = forced(world, spot)
    if variant is None:
        return None
    try:
        variant.apply(spot.played)
    except GameError:
        return None
    return variant


__all__ = ["alike", "forced", "rollout", "shrunk", "soft_win", "weigh_spot"]
