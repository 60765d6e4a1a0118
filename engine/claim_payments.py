"""A route's payments: every way a hand may pay for it (listed at once, or only when asked: `LatePayments`), how
many cards each leaves, and a route offered to claim with its payments (`ClaimOption`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import SupportsIndex, overload

from engine.claim_index import IndexedRoute
from maps import WILD, Route


@dataclass(frozen=True)
class ClaimOption:
    route: Route
    payments: list[Counter[str]]
    souvenirs: tuple[str, ...]  # ends whose token may be taken; two means the player must choose


def payment_counters(indexed: IndexedRoute, hand: Counter[str]) -> list[Counter[str]]:
    """`engine.payment.payment_options` for the route `indexed` stands for, read from the claim index."""
    length = indexed.length
    held = hand.get
    wilds_held = held(WILD, 0)
    wild_range = range(indexed.least_wilds, min(length, wilds_held) + 1) if indexed.wilds_allowed else range(1)
    found: list[Counter[str]] = []
    new = dict.__new__  # a Counter built without `Counter.__init__`, which only fills it
    for wilds in wild_range:
        plain = length - wilds
        if plain == 0:
            if wilds_held >= length:
                pay: Counter[str] = new(Counter)
                pay[WILD] = wilds
                found.append(pay)
            continue
        for colour in indexed.colours:
            if held(colour, 0) >= plain:
                pay = new(Counter)
                pay[colour] = plain
                if wilds:
                    pay[WILD] = wilds
                found.append(pay)
    return found


def most_left(payments: Sequence[Counter[str]], hand: Counter[str]) -> int:
    """The most wilds and cards of its colour one of these payments leaves in `hand` (0 at least)."""
    spare = 0
    for pay in payments:
        colours = [c for c in pay if c != WILD]
        left = hand[WILD] - pay[WILD] + (hand[colours[0]] - pay[colours[0]] if colours else 0)
        spare = max(spare, left)
    return spare


class LatePayments(list[Counter[str]]):
    """`payment_counters(indexed, hand)`, listed when first read (from `hand` as it is then)."""

    def __init__(self, indexed: IndexedRoute, hand: Counter[str]) -> None:
        super().__init__()
        self._indexed: IndexedRoute | None = indexed
        self._hand = hand

    def _fill(self) -> None:
        if self._indexed is not None:
            super().extend(payment_counters(self._indexed, self._hand))
            self._indexed = None

    def most_left(self) -> int:
        """`IndexedRoute.most_left`: read from the route's index while the payments are not listed yet."""
        if self._indexed is not None:
            return self._indexed.most_left(self._hand)
        return most_left(self, self._hand)

    def __iter__(self) -> Iterator[Counter[str]]:
        self._fill()
        return super().__iter__()

    def __len__(self) -> int:
        self._fill()
        return super().__len__()

    def __contains__(self, item: object) -> bool:
        self._fill()
        return super().__contains__(item)

    def __reversed__(self) -> Iterator[Counter[str]]:
        self._fill()
        return super().__reversed__()

    @overload
    def __getitem__(self, index: SupportsIndex) -> Counter[str]: ...

    @overload
    def __getitem__(self, index: slice) -> list[Counter[str]]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> Counter[str] | list[Counter[str]]:
        self._fill()
        return super().__getitem__(index)

    def __eq__(self, other: object) -> bool:
        self._fill()
        return super().__eq__(other)

    def __repr__(self) -> str:
        self._fill()
        return super().__repr__()
