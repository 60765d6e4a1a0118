"""The worlds an expert decision plays in: what the table has seen of each other seat (`Leaning`), and a world
sampled from what the seat may know (`sample_world`)."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from engine.expert_search import COLOUR_WEIGHT
from engine.game import Game
from engine.moves import Claim, DrawCard, TunnelPay
from engine.paths import weight_list
from engine.strong import Seat, floored_weights
from maps import Board


@dataclass(frozen=True)
class Leaning:
    """What the table has seen of one other seat: the cards it holds for sure, and what its routes and those
    cards say about its tickets (read only from who owns which route and from the moves)."""

    seen: Counter[str]  # the cards seen going into its hand and not out (`seen_cards`)
    progress: dict[int, float]  # ticket -> share of its cost on an empty board its routes already cover
    explains: dict[int, frozenset[int]]  # ticket -> its routes that lie on the ticket's cheapest path
    lengths: dict[int, int]  # its routes' lengths
    total: int  # their sum
    colours: dict[int, float]  # ticket -> share of the cards seen in its hand that the ticket's routes would take


_FREE: dict[int, tuple[Board, dict[int, float]]] = {}


def _free_costs(game: Game, view: Seat) -> dict[int, float]:
    """Each ticket's cheapest cost on an empty board (worked out once per board)."""
    board = game.board
    found = _FREE.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    free = weight_list(board, dict(enumerate(floored_weights(game))))
    costs = {t: view.ticket_path(t, free)[0] for t in range(len(board.tickets))}
    _FREE[id(board)] = (board, costs)
    return costs


def ticket_leanings(game: Game, name: str) -> dict[int, Leaning]:
    """For each other seat, what its routes and the cards seen going into its hand say about its tickets
    (see `Leaning`)."""
    me = game.seat(name)
    board = game.board
    seen = seen_cards(game)
    out: dict[int, Leaning] = {}
    for seat, other in enumerate(game.names):
        if seat == me:
            continue
        owned = game.state.players[seat].routes
        view = Seat(game, other)  # its weights: who owns what, open or closed to it (public)
        free = _free_costs(game, view)
        weights = weight_list(board, view.weights)
        mine = set(owned)
        held = {card: n for card, n in seen[seat].items() if card in game.rules.colors}
        cards = sum(held.values())
        progress: dict[int, float] = {}
        explains: dict[int, frozenset[int]] = {}
        colours: dict[int, float] = {}
        for t in range(len(board.tickets)):
            cost, path, _ = view.ticket_path(t, weights)
            base = free[t]
            if cost == math.inf or base <= 0 or base == math.inf:  # out of its reach: unlikely kept
                progress[t] = -1.0
                explains[t] = frozenset()
                colours[t] = 0.0
                continue
            progress[t] = min(max(1 - cost / base, 0.0), 1.0)
            explains[t] = frozenset(r for r in path if r in mine)
            if cards:
                need: Counter[str] = Counter()
                for r in path:
                    route = board.routes[r]
                    if r not in mine and route.color in held:
                        need[route.color] += route.length
                colours[t] = sum(min(n, need[c]) for c, n in held.items()) / cards
            else:
                colours[t] = 0.0
        lengths = {r: board.routes[r].length for r in mine}
        out[seat] = Leaning(seen[seat], progress, explains, lengths, sum(lengths.values()), colours)
    return out


def _deal_leaning(pool: list[int], k: int, leaning: Leaning, strength: float, rng: random.Random) -> list[int]:
    """Take k tickets from the pool, one by one, each weighted by exp(strength * (its progress + the share of
    the seat's routes it explains that the tickets taken before it do not + COLOUR_WEIGHT * its share of the
    seen cards)): tickets the routes and cards point to, and together as few as explain the routes."""
    taken: list[int] = []
    explained: set[int] = set()
    total = max(leaning.total, 1)
    for _ in range(min(k, len(pool))):
        weights = []
        for t in pool:
            new = sum(leaning.lengths[r] for r in leaning.explains[t] if r not in explained)
            lean = leaning.progress[t] + new / total + COLOUR_WEIGHT * leaning.colours[t]
            weights.append(math.exp(strength * lean))
        ticket = pool.pop(rng.choices(range(len(pool)), weights)[0])
        taken.append(ticket)
        explained |= leaning.explains[ticket]
    return taken


def seen_cards(game: Game) -> list[Counter[str]]:
    """By seat, the cards the table has seen go into each hand and not come out: taken from the face-up row,
    less those paid for claims since (a tunnel given up gives its cards back). Read from the moves only."""
    seen: list[Counter[str]] = [Counter() for _ in game.names]
    tentative: dict[int, Counter[str]] = {}
    for move in game.moves:
        seat = game.seat(move.player)
        hand = seen[seat]
        if isinstance(move, DrawCard):
            if move.source != "deck":
                hand[move.source] += 1
        elif isinstance(move, Claim | TunnelPay):
            if isinstance(move, TunnelPay) and move.pay is None:
                hand.update(tentative.pop(seat, Counter()))
                continue
            paid: Counter[str] = Counter()
            for card, n in move.pay or ():
                take = min(hand[card], n)
                if take:
                    hand[card] -= take
                    paid[card] = take
            tentative[seat] = paid if isinstance(move, Claim) else Counter()
    return [+hand for hand in seen]


def sample_world(
    game: Game,
    name: str,
    rng: random.Random,
    label: str,
    leanings: dict[int, Leaning] | None = None,
    strength: float = 0.0,
) -> Game:
    """The game with everything `name` cannot see dealt anew from what it cannot see.

    Built only from the multisets of unseen cards and tickets (sorted before
    shuffling), so it does not depend on where those actually are. With
    `leanings` (`ticket_leanings`), each other hand keeps the cards seen going
    into it and the other players' tickets are dealt by `_deal_leaning` with
    this `strength`.
    """
    world = game.copy()
    s = world.state
    seat = world.seat(name)
    others = [p for i, p in enumerate(s.players) if i != seat]
    unseen: Counter[str] = Counter(s.piles.deck)
    for p in others:
        unseen += p.hand
    known: dict[int, Counter[str]] = {}
    if leanings is not None:  # inferring: the cards the table saw go into a hand stay there
        for i, leaning in sorted(leanings.items()):
            hand = leaning.seen
            kept: Counter[str] = Counter()
            room = s.players[i].cards
            for card in sorted(hand):
                n = min(hand[card], unseen[card], room)
                if n > 0:
                    kept[card] = n
                    unseen[card] -= n
                    room -= n
            known[i] = kept
    cards = sorted(unseen.elements())
    rng.shuffle(cards)
    for i, p in enumerate(s.players):
        if i == seat:
            continue
        hand = Counter(known.get(i, ()))
        size = p.cards - hand.total()
        hand.update(cards[:size])
        p.hand = +hand
        del cards[:size]
    s.piles.deck = cards
    s.piles.seed = label  # the discard pile's future reshuffles: this world's, not the game's
    world.seed = label
    world.initial_cards = sorted(world.initial_cards)  # nor does it keep the deal's order
    world.initial_tickets = sorted(world.initial_tickets)
    tickets = list(s.ticket_deck) + list(s.removed_tickets)
    for p in others:
        tickets += p.tickets + (p.offered or [])
    tickets.sort()
    rng.shuffle(tickets)
    for i, p in enumerate(s.players):
        if i == seat:
            continue
        n = len(p.tickets)
        if leanings is not None and i in leanings:
            p.tickets = _deal_leaning(tickets, n, leanings[i], strength, rng)
        else:
            p.tickets = tickets[:n]
            del tickets[:n]
        if p.offered is not None:
            n = len(p.offered)
            p.offered = tickets[:n]
            del tickets[:n]
    n = len(s.ticket_deck)
    s.ticket_deck = tickets[:n]
    s.removed_tickets = tickets[n:]
    world.moves = []  # the moves so far tell what was drawn from where: the world does not need them
    return world
