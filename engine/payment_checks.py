"""The checks every payment of cards meets, a route's or a tunnel's surcharge: cards of the map, cards in hand.

They stand apart from `engine/payment.py` so the map's rules (`engine/extras/tunnels.py`) check a surcharge
with them while the core reaches those rules only through `engine/extras/registry.py`.
"""

from __future__ import annotations

from collections import Counter

from engine.errors import HoldOnly, IllegalMoveError, InvalidMoveError, MapNames, NotACardToPay
from maps import WILD, Rules


def check_card_names(rules: Rules, pay: Counter[str]) -> None:
    for card in pay:
        if card != WILD and card not in rules.colors:
            raise InvalidMoveError(NotACardToPay(card, (*rules.colors, WILD), MapNames.of(rules)))


def check_in_hand(rules: Rules, pay: Counter[str], hand: Counter[str]) -> None:
    for card, n in sorted(pay.items()):
        if hand[card] < n:
            have = hand[card]
            raise IllegalMoveError(HoldOnly(n, card, have, MapNames.of(rules)))
