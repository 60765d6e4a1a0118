"""How hard the expert searches (`Search`), the constants it decides by, and its own seat's tuning by board.

`bench.expert_quality --set NAME=VALUE` changes a constant in every expert module that reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Game
from engine.strong import DEFAULT_TUNING, Tuning

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
# lost more often than it won (measured: bench/expert_bounds.py, docs/benchmarks.md)
CONFIDENCE_MANY = 2.5
MIN_WORLDS = 4
# How much the colours seen going into a hand count toward its tickets, against the routes' progress.
COLOUR_WEIGHT = 0.5
# How strongly the worlds read the table (`Search.infer`).
INFER = 16.0
# At most this many candidates at the start of a turn (strong's move included).
TURN_CANDIDATES = 4
# Its own seat's strong (its first candidate, and its seat in the playouts), tuned for the board and the number
# of players where a tuning beat plain strong on its own (bench/strong_variants.py, same seeds; docs/benchmarks.md):
# in two-player games on the smallest boards (Amsterdam's carts, San Francisco's cable cars) it
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
