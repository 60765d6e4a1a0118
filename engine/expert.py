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
measured, it did not yet surely beat the default (README.md, Benchmarks).

With `Search.bonus` they hold a scoring claim too (`scoring_claim`): the claim
that adds most to the seat's own score as if the game ended now, beyond its
route's points (a ticket it finishes, the longest path, India's Mandala
bonus, merchandise, a souvenir), when it adds at least that many points.
Strong plays for none of the maps' bonuses, so its candidates miss such a
claim. Off by default until measured (README.md, Benchmarks).

Two options spend the work otherwise (both off by default: measured, they
did not beat the full playouts yet; see README.md, Benchmarks, and
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
within chance: README.md, Benchmarks) mostly fits within the default 1.8 s
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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.game import Game
from engine.keep_book import book_keep
from engine.moves import Claim, DrawCard, DrawTickets, Keep, Move, TunnelPay
from engine.paths import weight_list
from engine.scoring import winners
from engine.state import Pending, Phase
from engine.strong import DEFAULT_TUNING, Seat, Tuning, _claim, _draw, _floored_weights, _goal, choose_strong
from maps import Board

# Rollouts stop after this many moves (strong games end long before).
MAX_ROLLOUT_MOVES = 2000
# A win's worth in points, on top of the margin.
WIN_BONUS = 10.0
# `estimate`: a player's final score is guessed as their score now, plus their plan's unfinished tickets
# (each worth its points and the loss it avoids) times the chance the plan gets done, plus some of the points
# of the plan's routes, the trains they will likely spend beyond the plan and the cards in their hand. The
# weights were chosen on strong's rollouts from sampled positions: those whose candidate-against-strong gains
# after 24-48 moves went most with the gains of the same worlds played to the end. A guessed win counts as a
# share of WIN_BONUS by the guessed margin on a logistic scale of WIN_SCALE points.
TICKET_WEIGHT = 0.9
PLAN_ROUTE_WEIGHT = 0.4
SPARE_TRAIN_POINTS = 1.6
CARD_POINTS = 1.5
WIN_SCALE = 12.0
# What `estimate` costs, in simulated moves of the work budget (per player).
ESTIMATE_COST = 2
# Play another move than strong's only when its mean gain, less CONFIDENCE standard errors, exceeds
# DEVIATE points over at least MIN_WORLDS worlds.
DEVIATE = 1.0
CONFIDENCE = 1.5
# ... in games of three or more players, where the worlds are noisier and a move left for a sure-looking gain
# lost more often than it won (measured: bench/expert_bounds.py, README.md "Benchmarks")
CONFIDENCE_MANY = 2.5
MIN_WORLDS = 4
# How much the colours seen going into a hand count toward its tickets, against the routes' progress.
COLOUR_WEIGHT = 0.5
# How strongly the worlds read the table (`Search.infer`).
INFER = 16.0
# At most this many candidates at the start of a turn (strong's move included).
TURN_CANDIDATES = 4
# Its own seat's strong (its first candidate, and its seat in the playouts), tuned for the board and the number
# of players where a tuning beat plain strong on its own (bench/strong_variants.py, same seeds; README.md,
# Benchmarks): in two-player games on the smallest boards (Amsterdam's carts, San Francisco's cable cars) it
# draws more tickets only with at least SMALL_TICKET_TRAINS trains left, so hardly ever once its first tickets
# are under way (53.6% of 2,000 San Francisco games and 57.0% of 1,200 Amsterdam ones against plain strong);
# in two-player Switzerland only with at least 20, it may keep three tickets of an offer instead of two, and
# its plans lean hard to long routes (LONG_ROUTE_WORTH 5 instead of 0.15: 80.1% of 800 games against plain
# strong, 59.9% without the lean); in two-player India its plans lean to long routes (5: 60.1% of 800 games,
# 48.8% without); in four-player USA they lean to them (3.5), it draws more tickets only with at least 20
# trains left and never before its plan is done (47.1% of 800 games against three plain strong seats with 15
# trains, 25.9% for plain strong; with the opening book, 20 trains instead of 15 won 54.8% of 4,800 games
# against 53.5%). Elsewhere it plays plain strong.
SMALL_TICKET_TRAINS = 15
OWN_TUNINGS: dict[tuple[str, int], Tuning] = {
    ("san_francisco", 2): Tuning(ticket_trains=SMALL_TICKET_TRAINS),
    ("amsterdam", 2): Tuning(ticket_trains=SMALL_TICKET_TRAINS),
    ("switzerland", 2): Tuning(ticket_trains=20, max_keep=3, long_routes=5.0),
    ("india", 2): Tuning(long_routes=5.0),
    ("usa", 4): Tuning(ticket_trains=20, long_routes=3.5, early_tickets=False, longest_worth=1.0),
}


@dataclass(frozen=True)
class Search:
    """How hard the expert searches."""

    seed: str = "expert"  # with the seat's information, decides the sampled worlds
    worlds: int = 48  # at most this many worlds per decision
    work: int = 16000  # at most about this many simulated moves per decision (deterministic)
    time_limit: float | None = 1.8  # seconds; None: bounded by `work` and `worlds` only
    prune: float | None = None  # drop a candidate once its mean gain plus this many standard errors is
    # below DEVIATE (from MIN_WORLDS worlds on); None: every candidate plays in every world
    confidence: float = CONFIDENCE  # standard errors a gain must clear (see `_lower_bound`)
    confidence_many: float | None = CONFIDENCE_MANY  # ... in games of three or more players; None: `confidence`
    horizon: int | None = None  # rollouts stop at the seat's first turn after this many moves, scored by
    # `estimate`; None: played to the end
    infer: float | None = INFER  # worlds dealt by what the table has seen (the seen cards stay in their hands,
    # the tickets weighted as `_deal_leaning` says, this the strength); None: every unseen card and ticket alike
    infer_players: int = 5  # ... in games of at most this many players
    block: float | None = None  # also weigh the claim that most lengthens the others' likely ticket paths
    # (read as the worlds read the table), when it lengthens them by at least this many trains; None: never
    bonus: float | None = None  # also weigh the claim that adds most to the seat's score beyond its route's
    # points (tickets it finishes, the longest path, a map's bonus), when it adds at least this many; None: never

    def confidence_for(self, players: int) -> float:
        """The standard errors a gain must clear in a game of this many players."""
        if players > 2 and self.confidence_many is not None:
            return self.confidence_many
        return self.confidence


DEFAULT_SEARCH = Search()


def own_tuning(game: Game) -> Tuning:
    """How the strong autopilot is tuned when it plays the expert's own seat in this game (public facts only:
    the board and the number of players)."""
    if game.trains_option not in (None, game.rules.trains):
        return DEFAULT_TUNING  # measured with the board's own trains only
    return OWN_TUNINGS.get((game.board.name, len(game.names)), DEFAULT_TUNING)


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
    candidates = _keeps(game, name, fallback) if keeping else _turn_candidates(game, name, fallback, tuning)
    if len(candidates) == 1:
        return Share(candidates, None)
    inferring = search.infer is not None and len(game.names) <= search.infer_players
    leanings = ticket_leanings(game, name) if inferring else None
    if not keeping and search.block is not None and search.infer is not None and leanings is not None:
        block = blocking_claim(game, name, leanings, search.block, search.infer)
        if block is not None and block not in candidates:
            candidates.append(block)
    if not keeping and search.bonus is not None:
        bonus = scoring_claim(game, name, search.bonus)
        if bonus is not None and bonus not in candidates:
            candidates.append(bonus)
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


# ----- candidates ------------------------------------------------------------


def _keeps(game: Game, name: str, fallback: Move) -> list[Move]:
    """Every choice of the offered tickets, strong's first."""
    moves = [m for m in game.legal_moves(name) if isinstance(m, Keep)]
    return [fallback] + [m for m in moves if m != fallback]


def _turn_candidates(game: Game, name: str, fallback: Move, tuning: Tuning = DEFAULT_TUNING) -> list[Move]:
    """Strong's move, then its alternatives: drawing for the plan, the plan's claims, tickets, the best points."""
    s = game.state
    if s.phase is not Phase.PLAY or s.pending is not None or s.current != game.seat(name):
        return [fallback]
    me = Seat(game, name, tuning)
    plan = _goal(me)
    out: list[Move] = [fallback]

    def add(move: Move) -> None:
        if move not in out and len(out) < TURN_CANDIDATES:
            out.append(move)

    options = game.claim_options(name, lazy=True)
    pairs = {frozenset(me.board.routes[r].ends) for r in plan.routes}
    on_plan = [o for o in options if frozenset(o.route.ends) in pairs]
    on_plan.sort(key=lambda o: (-o.route.length, o.route.id))
    if on_plan:
        add(_claim(me, on_plan[0], plan))
    if game.card_draws(name):
        add(_draw(me, plan))
    if s.ticket_deck and s.final_turns is None and me.trains >= 8:
        add(DrawTickets(name))
    affordable = [o for o in options if o.route.length <= me.trains]
    if affordable:
        best = max(affordable, key=lambda o: (me.rules.route_points.get(o.route.length, 0), -o.route.id))
        add(_claim(me, best, plan))
    for option in on_plan[1:]:
        add(_claim(me, option, plan))
    return out


# At most this many of each other seat's likeliest tickets, and of the claims on their paths, are weighed
# for `blocking_claim`.
BLOCK_TICKETS = 4
BLOCK_CLAIMS = 6


def blocking_claim(
    game: Game, name: str, leanings: dict[int, Leaning], least: float, strength: float = INFER
) -> Move | None:
    """The claim that most lengthens the paths of the tickets the others likely hold (by their `Leaning`,
    each ticket weighted as the worlds of this inference `strength` deal it), when it lengthens them by at
    least `least` trains: a ticket it cuts off counts its path's cost again. None when no claim does. Read
    from the public board, the leanings and the seat's own hand only."""
    me = Seat(game, name)
    plan = _goal(me)
    options = [o for o in game.claim_options(name, lazy=True) if o.route.length <= me.trains]
    if not options:
        return None
    likely: list[tuple[str, int, float, float]] = []  # (seat's name, ticket, weight, cost now)
    paths: set[int] = set()
    views: dict[str, Seat] = {}
    board = game.board
    for seat, leaning in sorted(leanings.items()):
        other = game.names[seat]
        held = len(game.state.players[seat].tickets)
        lean = {
            t: leaning.progress[t] + COLOUR_WEIGHT * leaning.colours[t]
            for t in leaning.progress
            if leaning.progress[t] >= 0
        }
        if not lean or not held:
            continue
        top = max(lean.values())
        total = sum(math.exp(strength * (v - top)) for v in lean.values())
        view = views[other] = Seat(game, other)
        weights = weight_list(board, view.weights)
        for t in sorted(lean, key=lambda t: (-lean[t], t))[:BLOCK_TICKETS]:
            cost, path, _ = view.ticket_path(t, weights)
            if cost <= 0 or cost == math.inf:
                continue  # done already, or out of reach
            likely.append((other, t, min(held * math.exp(strength * (lean[t] - top)) / total, 1.0), cost))
            paths.update(path)
    if not likely:
        return None
    near = [o for o in options if o.route.id in paths or any(p.id in paths for p in board.parallel(o.route))]
    near.sort(key=lambda o: (-o.route.length, o.route.id))
    one_track = len(game.names) < game.rules.both_doubles_from  # a claim closes the other track too
    best: tuple[float, Move] | None = None
    for option in near[:BLOCK_CLAIMS]:
        # the routes the claim closes to the others (not played out: a tunnel's cards are not the seat's to see)
        closed = {option.route.id} | ({p.id for p in board.parallel(option.route)} if one_track else set())
        hurt = 0.0
        lists: dict[str, list[float | None]] = {}
        for other, t, weight, cost in likely:
            view = views[other]
            if other not in lists:
                lists[other] = weight_list(board, {r: w for r, w in view.weights.items() if r not in closed})
            then, _, _ = view.ticket_path(t, lists[other])
            hurt += weight * (2 * cost if then == math.inf else then - cost)
        if hurt >= least and (best is None or hurt > best[0]):
            best = (hurt, _claim(me, option, plan))
    return best[1] if best is not None else None


def scoring_claim(game: Game, name: str, least: float) -> Move | None:
    """The claim that adds most to the seat's score as if the game ended now beyond its route's own points
    (the tickets it finishes, the longest path, India's Mandala bonus, merchandise, souvenirs), when it adds at
    least `least`; None when none does. The seat's own score reads only its own tickets and the public board;
    a tunnel is placed, not played out (its cards are not the seat's to see)."""
    seat = game.seat(name)
    me = Seat(game, name)
    plan = _goal(me)
    points = game.rules.route_points
    now = game.score()[seat].total
    best: tuple[float, int, Move] | None = None
    for option in game.claim_options(name, lazy=True):
        route = option.route
        if route.length > me.trains:
            continue
        claim = _claim(me, option, plan)
        trial = game.copy()
        if route.tunnel:
            trial._place_route(seat, route, Counter(), None)
        else:
            trial.apply(claim)
        gain = trial.score()[seat].total - now - points.get(route.length, 0)
        if gain >= least and (best is None or (gain, -route.id) > best[:2]):
            best = (gain, -route.id, claim)
    return None if best is None else best[2]


# ----- worlds ----------------------------------------------------------------


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
    free = weight_list(board, dict(enumerate(_floored_weights(game))))
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
    return _final_value(world, seat), played


def _final_value(world: Game, seat: int) -> float:
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
        return _final_value(game, seat)
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
        plan = _goal(me)
        chance = me.success(plan, me.turns_left()) if plan.tickets else 1.0
        tickets = sum(game.board.tickets[t].best + game.board.tickets[t].worst for t in plan.tickets)
        routes = sum(points.get(game.board.routes[r].length, 0) for r in plan.routes)
        spare = max(min(p.trains - plan.trains, rounds * rates[i] - plan.trains), 0.0)
        later = TICKET_WEIGHT * chance * tickets + PLAN_ROUTE_WEIGHT * routes + SPARE_TRAIN_POINTS * spare
        guessed.append(scores[i].total + later + CARD_POINTS * p.cards)
    margin = guessed[seat] - max(g for i, g in enumerate(guessed) if i != seat)
    return margin + WIN_BONUS / (1 + math.exp(-margin / WIN_SCALE))


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
    "Search",
    "Share",
    "blocking_claim",
    "choose_expert",
    "choose_shared",
    "estimate",
    "sample_world",
    "scoring_claim",
    "search_share",
    "searching",
]
