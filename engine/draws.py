"""Card draws: two cards a turn, blind from the deck or from the face-up row."""

from __future__ import annotations

from functools import partial

from engine.errors import (
    IllegalMoveError,
    InvalidMoveError,
    MapNames,
    NotACardToDraw,
    NotFaceUp,
    PilesEmpty,
    WildSecond,
)
from engine.events import Action, Event
from engine.state import Pending, Phase
from engine.turns import TurnFlow
from maps import WILD


class CardDraws(TurnFlow):
    """Which cards may be drawn, and drawing them."""

    def can_draw_blind(self) -> bool:
        return self.state.piles.can_take_blind()

    def face_up_choices(self, second: bool) -> list[str]:
        """Face-up colours that may be taken now (first or second card)."""
        out: list[str] = []
        for card in self.state.piles.face_up:
            if card is None or card in out:
                continue
            if second and card == WILD and self.rules.faceup_wild_ends_draw:
                continue
            out.append(card)
        return out

    def card_draws(self, name: str) -> list[str]:
        """Legal `draw` sources for this player now: "deck" and face-up colours."""
        s = self.state
        if s.phase is not Phase.PLAY or s.current != self.seat(name):
            return []
        if s.pending not in (None, Pending.DRAW):
            return []
        return self._card_sources(s.pending is Pending.DRAW)

    def _card_sources(self, second: bool) -> list[str]:
        """`card_draws` of the player to move, once it is known they may draw."""
        piles = self.state.piles
        sources = ["deck"] if piles.deck or piles.discard else []
        skip_wild = second and self.rules.faceup_wild_ends_draw
        for card in piles.face_up:
            if card is None or card in sources or (skip_wild and card == WILD):
                continue
            sources.append(card)
        return sources

    def _plan_card_draw(self, seat: int, source: str) -> Action:
        piles = self.state.piles
        second = self.state.pending is Pending.DRAW
        if source == "deck":
            if not piles.can_take_blind():
                raise IllegalMoveError(PilesEmpty())
            return partial(self._draw_card, seat, None)
        if source != WILD and source not in self.rules.colors:
            choices = tuple(self.face_up_choices(second))
            raise InvalidMoveError(NotACardToDraw(source, choices, MapNames.of(self.rules)))
        slot = piles.slot_of(source)
        if slot is None:
            row = tuple(c for c in piles.face_up if c)
            raise IllegalMoveError(NotFaceUp(source, row, MapNames.of(self.rules)))
        if second and source == WILD and self.rules.faceup_wild_ends_draw:
            raise IllegalMoveError(WildSecond(MapNames.of(self.rules)))
        return partial(self._draw_card, seat, slot)

    def _draw_card(self, seat: int, slot: int | None) -> list[Event]:
        """Draw blind (`slot` None) or the face-up card in `slot`."""
        s = self.state
        p = s.players[seat]
        second = s.pending is Pending.DRAW
        if slot is None:
            card = s.piles.take_top()
            assert card is not None
            p.hand[card] += 1
            event = Event("draw_deck", p.name, {"second": second}, {"card": card})
        else:
            card = s.piles.take_face_up(slot)
            p.hand[card] += 1
            event = Event("draw_face_up", p.name, {"card": card, "slot": slot, "second": second})
        events = [event]
        if second:
            s.pending = None
            events += self._end_turn()
        elif slot is not None and card == WILD and self.rules.faceup_wild_ends_draw:
            events += self._end_turn()
        else:
            s.pending = Pending.DRAW
        return events
