"""A tournament's standings from its games' results (issue 14). Pure: no store, no Discord, no text.

**Place points.** At a table of N players the places are worth N-1, N-2,
..., 0 (first place N-1, last place 0). Players who share a place (the game's
own tie-breaks could not separate them) cover that many places and split
their points equally: at a table of 4, two players tied for first get
(3 + 2) / 2 = 2.5 each and the next player, third, gets 1. Points are
`Fraction`s, so halves stay exact.

**Order.** Players are ranked by, in turn:

1. total place points,
2. total game score,
3. tickets completed (in all games),
4. opponents' strength: the average, over every opponent in every game
   (an opponent met twice counts twice), of that opponent's total place
   points in the whole tournament. An average, not a sum, so that a player
   who sat at smaller tables (or played fewer games) is not penalised for
   having met fewer opponents.

Players equal on all four share a rank (1, 2, 2, 4: the next rank skips);
rows of a shared rank are listed by player id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction


class StandingsError(ValueError):
    """A game result that cannot be scored (a player twice at one table, a place below 1)."""


@dataclass(frozen=True)
class Finish:
    """One player's result in one game: place after the game's own tie-breaks (1 = first; equal = tied)."""

    player: int
    place: int
    score: int
    tickets: int  # tickets completed


@dataclass(frozen=True)
class TableResult:
    """One finished game of the tournament."""

    finishes: Sequence[Finish]


@dataclass(frozen=True)
class StandingRow:
    rank: int  # shared by players equal on every figure
    player: int
    place_points: Fraction
    score: int
    tickets: int
    opponents_strength: Fraction
    games: int
    wins: int  # games with place 1 (shared or not)


def place_points(finishes: Sequence[Finish]) -> dict[int, Fraction]:
    """Each player's place points at one table (see the module's doc)."""
    seen: set[int] = set()
    for finish in finishes:
        if finish.player in seen:
            raise StandingsError(f"player {finish.player} is twice at one table")
        if finish.place < 1:
            raise StandingsError(f"place {finish.place} of player {finish.player} is below 1")
        seen.add(finish.player)
    size = len(finishes)
    points: dict[int, Fraction] = {}
    covered = 0  # places taken by better players
    for place in sorted({finish.place for finish in finishes}):
        tied = [finish.player for finish in finishes if finish.place == place]
        # the places covered are covered + 1 .. covered + len(tied); place k is worth size - k
        total = sum(size - (covered + k) for k in range(1, len(tied) + 1))
        for player in tied:
            points[player] = Fraction(total, len(tied))
        covered += len(tied)
    return points


def standings(results: Iterable[TableResult], players: Iterable[int] = ()) -> list[StandingRow]:
    """The ranked standings of every player in `results` (and of `players`, with nothing, if they have no game)."""
    games = list(results)
    totals: dict[int, Fraction] = {player: Fraction(0) for player in players}
    scores: dict[int, int] = dict.fromkeys(totals, 0)
    tickets: dict[int, int] = dict.fromkeys(totals, 0)
    played: dict[int, int] = dict.fromkeys(totals, 0)
    wins: dict[int, int] = dict.fromkeys(totals, 0)
    opponents: dict[int, list[int]] = {player: [] for player in totals}
    for game in games:
        points = place_points(game.finishes)
        for finish in game.finishes:
            player = finish.player
            totals[player] = totals.get(player, Fraction(0)) + points[player]
            scores[player] = scores.get(player, 0) + finish.score
            tickets[player] = tickets.get(player, 0) + finish.tickets
            played[player] = played.get(player, 0) + 1
            wins[player] = wins.get(player, 0) + (1 if finish.place == 1 else 0)
            opponents.setdefault(player, []).extend(f.player for f in game.finishes if f.player != player)
    strength = {
        player: (sum((totals[o] for o in met), Fraction(0)) / len(met)) if met else Fraction(0)
        for player, met in opponents.items()
    }

    def key(player: int) -> tuple[Fraction, int, int, Fraction]:
        return (totals[player], scores[player], tickets[player], strength[player])

    order = sorted(totals, key=lambda p: (-totals[p], -scores[p], -tickets[p], -strength[p], p))
    rows: list[StandingRow] = []
    for position, player in enumerate(order, start=1):
        rank = rows[-1].rank if rows and key(rows[-1].player) == key(player) else position
        rows.append(
            StandingRow(
                rank=rank,
                player=player,
                place_points=totals[player],
                score=scores[player],
                tickets=tickets[player],
                opponents_strength=strength[player],
                games=played[player],
                wins=wins[player],
            )
        )
    return rows
