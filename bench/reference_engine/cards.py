"""The train-card piles: deck, discard pile and face-up row.

The exact procedures (reshuffle, refill, wild reset) are those of
specs/game-record.md, because every game record replays against them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from maps import WILD

FACE_UP_SLOTS = 5
WILDS_FOR_RESET = 3
MAX_RESETS_PER_CHECK = 3


@dataclass
class CardPiles:
    seed: str  # the record's seed as text; it names every reshuffle
    deck: list[str]  # index 0 is the top
    discard: list[str] = field(default_factory=list)
    face_up: list[str | None] = field(default_factory=lambda: [None] * FACE_UP_SLOTS)
    reshuffles: int = 0
    resets: int = 0  # wild resets so far, for announcements

    def copy(self) -> CardPiles:
        return CardPiles(
            self.seed, list(self.deck), list(self.discard), list(self.face_up), self.reshuffles, self.resets
        )

    def reshuffle(self) -> None:
        self.reshuffles += 1
        cards = sorted(self.discard)
        random.Random(f"{self.seed}:reshuffle:{self.reshuffles}").shuffle(cards)
        self.deck = cards
        self.discard = []

    def take_top(self) -> str | None:
        """The top card of the deck, reshuffling the discard pile if needed."""
        if not self.deck:
            if not self.discard:
                return None
            self.reshuffle()
        return self.deck.pop(0)

    def can_take_blind(self) -> bool:
        return bool(self.deck or self.discard)

    def slot_of(self, card: str) -> int | None:
        for i, c in enumerate(self.face_up):
            if c == card:
                return i
        return None

    def take_face_up(self, slot: int) -> str:
        card = self.face_up[slot]
        assert card is not None
        self.face_up[slot] = None
        self.refill_and_check()
        return card

    def _refill(self) -> None:
        for i in range(FACE_UP_SLOTS):
            if self.face_up[i] is None:
                card = self.take_top()
                if card is None:
                    return
                self.face_up[i] = card

    def wilds_face_up(self) -> int:
        return sum(1 for c in self.face_up if c == WILD)

    def refill_and_check(self) -> None:
        """Refill the empty slots, then run one wild-reset check."""
        self._refill()
        done = 0
        while self.wilds_face_up() >= WILDS_FOR_RESET:
            if len(self.deck) + len(self.discard) < FACE_UP_SLOTS or done == MAX_RESETS_PER_CHECK:
                return
            for i in range(FACE_UP_SLOTS):
                card = self.face_up[i]
                if card is not None:
                    self.discard.append(card)
                    self.face_up[i] = None
            self._refill()
            done += 1
            self.resets += 1

    def total(self) -> int:
        return len(self.deck) + len(self.discard) + sum(1 for c in self.face_up if c is not None)
