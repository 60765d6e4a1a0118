"""The `expert` autopilot: a search over its own moves in worlds sampled from what its seat may know.

At a decision that matters (choosing tickets, the start of a turn) it lists a
few candidate moves: the `strong` autopilot's move first, then the
alternatives strong weighs (drawing cards for its plan, drawing tickets, the
plan's most urgent claims, the claim worth most points; every choice of
tickets when it keeps some). It then samples worlds: everything its seat
cannot see is dealt anew from what it cannot see (the cards of the deck and of
the other hands shuffled together, each hand keeping its size; the tickets of
the deck, set aside and of the other players likewise; future reshuffles of
the discard pile by the world's own seed). In each world every candidate is
played, then the game is played out with the strong autopilot in every seat,
and the candidate is scored by its final margin (its points less the best
other player's, plus a bonus for a win). The same worlds serve every
candidate, so each is compared with strong's move world by world; it plays
another move than strong's only when its gain is sure enough (its mean gain
less 1.5 standard errors still above a point; 2.5 in games of three or more
players, whose worlds are noisier), the one with the surest gain.
Second card draws, tunnel payments and placements are strong's.

In two-player games on Amsterdam, San Francisco, Switzerland and India and
in four-player USA its own seat's strong, its first candidate and its seat
in the playouts, is tuned (`own_tuning`, OWN_TUNINGS), as beat plain strong
there on its own: it draws more tickets only with more trains left (and in
Switzerland it may keep three tickets of an offer; in four-player USA it
draws none before its plan is done and, the plan done, claims for what a
route adds to its longest path too: `Tuning.longest_worth`), and on
Switzerland, India and four-player USA its plans lean hard to long routes
(`Tuning.long_routes`).
The other seats of the playouts play plain strong.
In four-player USA its first keep is an opening book's instead of strong's
keep rule, unsearched (`engine.keep_book`: the offered pair of tickets its
own seat won most games with against three strong seats, 192 games a pair,
bench/keep_book.py; a decision's handful of worlds could not tell the pairs
apart).

With `Search.infer` the worlds read the table as a player does. The cards a
player was seen taking from the face-up row and has not paid out since stay
in their hand (`seen_cards`, from the moves). Their tickets are dealt one by
one, each weighted by exp(infer * (how much of the ticket's cost their routes
already cover, plus the share of their routes on its cheapest path that the
tickets dealt before it leave unexplained, plus COLOUR_WEIGHT times the share
of their seen cards its routes would take)): the tickets their network points
to, together as few as explain it (`ticket_leanings`). All of it is public:
who owns which route and the moves, never where a card or ticket really is.

With `Search.block` the turn's candidates also hold a blocking claim
(`blocking_claim`): of the routes it can claim now on the paths of each other
player's likeliest tickets (their four best by the same reading of the
table, each weighted by how likely a world deals it to them), the one that
lengthens those paths most, when it lengthens them by at least that many
trains (a ticket it cuts off counts its path's cost again). It is only a
candidate: the worlds decide whether it beats strong's move. Off by default:
measured, it did not yet surely beat the default (docs/benchmarks.md).

With `Search.bonus` they hold a scoring claim too (`scoring_claim`): the claim
that adds most to the seat's own score as if the game ended now, beyond its
route's points (a ticket it finishes, the longest path, India's Mandala
bonus, merchandise, a souvenir), when it adds at least that many points.
Strong plays for none of the maps' bonuses, so its candidates miss such a
claim. Off by default until measured (docs/benchmarks.md).

Two options spend the work otherwise (both off by default: measured, they
did not beat the full playouts yet; see docs/benchmarks.md, and
bench/expert_quality.py). `Search.horizon`
cuts a playout short at the seat's first turn after that many moves and
scores the position with `estimate` instead: each player's score now, plus
their plan's tickets (strong's `_goal`) times the chance strong gives the
plan, part of the plan's route points, the trains they will likely spend
beyond it and the cards in their hand, then the seat's margin and a share of
the win bonus by it; a finished game scores exactly. A 24-move playout (and the
estimate) is a fraction of a full one (a two-player USA game is ~145 strong
moves, a four-player one ~250), and its gains over strong's move are less
noisy world to world, but only partly the same gains. `Search.prune` stops playing
a candidate whose gains so far are surely too small to leave strong's move
for (its mean plus that many standard errors below a point, from four worlds
on), so the worlds left go to the others, and the search ends when none is
left. `Search.confidence` sets the 1.5 standard errors above (2.5 went best
with the cut playouts).

It never reads the deck's order, the other hands or tickets, nor the game's
seed (which orders the deck and its reshuffles): a world is built only from
the seat's own hand and tickets, the public state (the moves' face-up draws
and payments included) and the multisets of unseen cards and tickets, and
its randomness comes from the search seed and the
number of moves made so far. With the same search seed, and with the work
bounded by `Search.work` rather than the clock, the same information gives the
same move (tests/test_autopilot_expert.py). `Search.time_limit` bounds a
decision's wall time as well: when it runs out the worlds searched so far
decide (all of them or none, never part of one). The default work (16,000
moves; 8,000 until twice as much won more games on the same seeds, though
within chance: docs/benchmarks.md) mostly fits within the default 1.8 s
in two-player games; in games of three or more players, where a playout is
longer, the limit decides most of the time.

A decision's search may be split into parts that run side by side in other
processes (`search_share`, part k of n; engine/autopilot.py sends them):
each part samples worlds of its own (its random stream is the search seed's,
the position's and the part's number) and plays its share of `Search.worlds`
and `Search.work` to the same time limit, and the move is decided from the
gains of every part's worlds together (`choose_shared`). Split in n, a
decision that the time limit ends (most in games of three or more players)
weighs about n times the worlds; one that the work ends (most two-player
ones) weighs the same worlds in less time, the parts sharing `Search.work`.
Unsplit (one part of one), the search is the one above, world for world.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.expert_candidates import add_searched_claims, blocking_claim, keeps, scoring_claim, turn_candidates
from engine.expert_search import (
    CONFIDENCE,
    DEFAULT_SEARCH,
    DEVIATE,
    ESTIMATE_COST,
    INFER,
    MAX_ROLLOUT_MOVES,
    MIN_WORLDS,
    OWN_TUNINGS,
    SMALL_TICKET_TRAINS,
    WIN_BONUS,
    Search,
    own_tuning,
)
from engine.expert_value import estimate, final_value
from engine.expert_worlds import Leaning, sample_world, seen_cards, ticket_leanings
from engine.game import Game
from engine.keep_book import book_keep
from engine.moves import Move
from engine.state import Pending, Phase
from engine.strong import DEFAULT_TUNING, choose_strong


@dataclass(frozen=True)
class Share:
    """What one part of a decision's search found (`search_share`): the candidates, strong's move first, and
    each one's gains over strong's move in the worlds that part played (None: nothing to search, or not one
    world fit in the time)."""

    candidates: list[Move]
    gains: list[list[float]] | None


def searching(game: Game, name: str) -> bool:
    """Does the expert search at this decision (a keep, or the start of a turn), rather than play strong's move
    (or its opening book's keep)?"""
    s = game.state
    if s.phase in (Phase.OVER, Phase.SETUP_PLACE) or s.pending in (Pending.DRAW, Pending.TUNNEL):
        return False
    return book_keep(game, name) is None


def choose_expert(game: Game, name: str, search: Search = DEFAULT_SEARCH) -> Move:
    """The expert autopilot's move for `name`, who must be able to act now."""
    return choose_shared([search_share(game, name, search)], len(game.names), search)


def search_share(
    game: Game, name: str, search: Search = DEFAULT_SEARCH, share: int = 0, of: int = 1, began: float | None = None
) -> Share:
    """Part `share` of `of` of the search for `name`'s move: the candidates and their gains in this part's
    worlds (its own, by the search seed and the part's number; `Search.worlds` and `Search.work` split between
    the parts). Parts may run side by side in several processes; `choose_shared` decides from them all. The
    time limit counts from `began` (a `time.perf_counter()` reading; by default now)."""
    if began is None:
        began = time.perf_counter()  # `Search.time_limit` bounds the whole decision, its candidates included
    s = game.state
    if s.phase is Phase.OVER:
        raise ValueError("the game is over")
    book = book_keep(game, name)
    if book is not None:  # measured over far more games than a decision's worlds: not searched
        return Share([book], None)
    tuning = own_tuning(game)
    fallback = choose_strong(game, name, tuning)
    if not searching(game, name):
        return Share([fallback], None)
    keeping = s.phase is Phase.SETUP_KEEP or s.pending is Pending.KEEP
    candidates = keeps(game, name, fallback) if keeping else turn_candidates(game, name, fallback, tuning)
    if len(candidates) == 1:
        return Share(candidates, None)
    inferring = search.infer is not None and len(game.names) <= search.infer_players
    leanings = ticket_leanings(game, name) if inferring else None
    if not keeping:
        add_searched_claims(game, name, candidates, search, leanings)
    return Share(candidates, _evaluate(game, name, candidates, search, leanings, began, share, of))


def choose_shared(shares: Sequence[Share], players: int, search: Search = DEFAULT_SEARCH) -> Move:
    """The move the parts of a search (`search_share`, the first one's candidates leading) decide together,
    in a game of that many players: the candidate whose gain over strong's move is surest, when it is sure
    enough (see `_lower_bound`), else strong's move. A part that weighed other candidates adds only its gains
    for the first part's (all parts list the same ones, from the same position)."""
    candidates = shares[0].candidates
    merged: list[list[float]] = [[] for _ in candidates]
    for part in shares:
        if part.gains is None or part.candidates[0] != candidates[0]:
            continue
        for move, gains in zip(part.candidates, part.gains, strict=True):
            if move in candidates:
                merged[candidates.index(move)].extend(gains)
    best, bound = 0, 0.0
    for i in range(1, len(candidates)):
        low = _lower_bound(merged[i], search.confidence_for(players))
        if low > bound:
            best, bound = i, low
    return candidates[best]


def _hopeless(gains: list[float], prune: float) -> bool:
    """Is a candidate's gain so far surely too small to ever be sure enough: its mean gain plus `prune`
    standard errors below DEVIATE (only from MIN_WORLDS worlds on)?"""
    n = len(gains)
    if n < MIN_WORLDS:
        return False
    mean = sum(gains) / n
    var = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return mean + prune * math.sqrt(var / n) < DEVIATE


def _lower_bound(gains: list[float], confidence: float = CONFIDENCE) -> float:
    """How much better than strong's move a candidate surely is: its mean gain over the worlds less
    `confidence` standard errors (the worlds are noisy); minus infinity with too few worlds."""
    n = len(gains)
    if n < MIN_WORLDS:
        return -math.inf
    mean = sum(gains) / n
    var = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return mean - confidence * math.sqrt(var / n) - DEVIATE


# ----- playing the worlds ----------------------------------------------------


def _rollout(world: Game, seat: int, horizon: int | None = None) -> tuple[float, int]:
    """Play the world out with the strong autopilot in every seat, the seat's own tuned by `own_tuning`: (the
    seat's value, moves played, an estimate's cost included). With a horizon, stop at the seat's first turn
    after that many moves and `estimate` the position."""
    own = world.names[seat]
    tuning = own_tuning(world)
    played = 0
    limit = MAX_ROLLOUT_MOVES if horizon is None else horizon
    s = world.state
    while not world.finished and played < MAX_ROLLOUT_MOVES:
        if played >= limit and s.current == seat and s.pending is None and s.phase is Phase.PLAY:
            return estimate(world, seat), played + ESTIMATE_COST * len(s.players)
        who = world.waiting_for()[0]
        world.apply(choose_strong(world, who, tuning if who == own else DEFAULT_TUNING))
        played += 1
        s = world.state
    return final_value(world, seat), played


def _evaluate(
    game: Game,
    name: str,
    candidates: list[Move],
    search: Search,
    leanings: dict[int, Leaning] | None,
    began: float | None = None,
    share: int = 0,
    of: int = 1,
) -> list[list[float]] | None:
    """Each candidate's gains over strong's move (the first), world by world; None when not even one world
    fit in the time (`search.time_limit` counted from `began`, by default now). With `search.prune`, a
    candidate whose gains so far are hopeless is no longer played in the worlds that follow (its list stops
    there), and the search stops when none is left. Part `share` of `of` plays worlds of its own and its part
    of `search.worlds` and `search.work`."""
    if began is None:
        began = time.perf_counter()
    seat = game.seat(name)
    key = f"{search.seed}:{name}:{len(game.moves)}:{game.state.turn}"
    if of > 1:
        key = f"{key}:{share}/{of}"
    most = (search.worlds - share + of - 1) // of
    work = search.work / of
    rng = random.Random(key)
    gains: list[list[float]] = [[] for _ in candidates]
    alive = list(range(1, len(candidates)))
    worlds = 0
    spent = 0
    last = 0  # the last world's cost
    paths: dict[tuple[int, tuple[float | None, ...]], tuple[float, list[int], int]] = {}  # shared by the worlds
    while worlds < most and alive:
        if worlds and spent + (last if search.prune is not None else spent / worlds) > work:
            break
        if search.time_limit is not None and time.perf_counter() - began > search.time_limit:
            break  # out of time before this world (a part that waited for its process): none of it would count
        world = sample_world(game, name, rng, f"{key}:{worlds}", leanings, search.infer or 0.0)
        world._paths_kept = paths  # the strong autopilot's ticket paths, for every world of this decision
        values: list[float] = []
        cost = 0
        for i in [0, *alive]:
            trial = world.copy()
            trial.apply(candidates[i])
            value, played = _rollout(trial, seat, search.horizon)
            values.append(value)
            cost += played + 1
            if search.time_limit is not None and time.perf_counter() - began > search.time_limit:
                break
        if len(values) < len(alive) + 1:
            break  # out of time within this world: it does not count
        for i, value in zip(alive, values[1:], strict=True):
            gains[i].append(value - values[0])
        worlds += 1
        spent += cost
        last = cost
        if search.prune is not None:
            alive = [i for i in alive if not _hopeless(gains[i], search.prune)]
    if not worlds:
        return None
    return gains


__all__ = [
    "DEFAULT_SEARCH",
    "INFER",
    "OWN_TUNINGS",
    "SMALL_TICKET_TRAINS",
    "WIN_BONUS",
    "Search",
    "Share",
    "blocking_claim",
    "choose_expert",
    "choose_shared",
    "estimate",
    "own_tuning",
    "sample_world",
    "scoring_claim",
    "search_share",
    "searching",
    "seen_cards",
    "ticket_leanings",
]
