"""Which seats of which games have a planned turn, as this process knows it, so that a turn beginning (every other
action) costs no read of the store when the game has no plan.

A plan is set, played and cleared by the process that owns the game's server (bot/service/plans.py,
plan_turns.py), which tells this record as it does; the games that had plans when the process began are read once,
at the first turn that asks. A game this process knows nothing of since then is read when asked. A plan written by
another program is seen after a restart (the start-up also plays the plans owed, `TimerService.play_owed_plans`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.store import ALL_PLANS


class KnownPlans:
    def __init__(self) -> None:
        self._seats: dict[int, frozenset[int]] = {}  # game -> its seats with a plan, as read or written here
        self._at_start: frozenset[int] | None = None  # the games with a plan when first asked (None: not read yet)

    @property
    def started(self) -> bool:
        return self._at_start is not None

    def start(self, games: Iterable[int]) -> None:
        """The games that have a plan now (read from the store once)."""
        self._at_start = frozenset(games)

    def seats(self, game_id: int) -> frozenset[int] | None:
        """The game's seats with a plan, None if not known here (read them)."""
        if game_id in self._seats:
            return self._seats[game_id]
        if self._at_start is not None and game_id not in self._at_start:
            return frozenset()
        return None

    def learn(self, game_id: int, seats: Iterable[int]) -> None:
        """The game's seats with a plan, as just read or written (a game without any, that had none at the start,
        is kept as no entry at all: a long-running process does not collect every game it ever saw)."""
        known = frozenset(seats)
        if not known and self._at_start is not None and game_id not in self._at_start:
            self._seats.pop(game_id, None)
        else:
            self._seats[game_id] = known

    def gone(self, game_id: int, seats: Iterable[int]) -> None:
        """These seats' plans were removed (`ALL_PLANS`: every seat's)."""
        seats = tuple(seats)
        if not seats:
            return
        if seats == ALL_PLANS:
            self.learn(game_id, ())
        elif game_id in self._seats:
            self.learn(game_id, self._seats[game_id] - set(seats))

    def forget(self) -> None:
        """Know nothing (as a new process): everything is read again when asked."""
        self._seats.clear()
        self._at_start = None
