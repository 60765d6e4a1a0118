"""How a route may be paid: one colour plus wilds, wilds only on tunnels where a map says so.

Ferries' wilds are the ferry rule's (engine/extras/ferries.py, reached through
the registry); so is refusing a payment without them. Tunnel surcharges are in
engine/extras/tunnels.py. The checks of the cards themselves are in
engine/payment_checks.py.
"""

from __future__ import annotations

from collections import Counter

from engine.errors import IllegalMoveError, MapNames, OneColour, TakesCards, WildsTunnelsOnly, WrongColour
from engine.extras.registry import least_wilds
from engine.moves import Payment
from engine.payment_checks import check_card_names, check_in_hand
from maps import GRAY, WILD, Route, Rules

__all__ = ["can_pay", "check_card_names", "check_in_hand", "check_payment", "nth_payment", "payment_options"]


def check_payment(rules: Rules, route: Route, pay: Counter[str], hand: Counter[str]) -> None:
    """Raise a player-facing error unless `pay` is a legal payment for `route` (ferries aside)."""
    check_card_names(rules, pay)
    total = sum(pay.values())
    if total != route.length:
        raise IllegalMoveError(TakesCards(route.a, route.b, route.length, total))
    check_in_hand(rules, pay, hand)
    colours = sorted(c for c in pay if c != WILD)
    wilds = pay[WILD]
    if len(colours) > 1:
        raise IllegalMoveError(OneColour(tuple(colours), MapNames.of(rules)))
    if wilds and rules.wilds_only_on_tunnels and not route.tunnel:
        raise IllegalMoveError(WildsTunnelsOnly(MapNames.of(rules)))
    if colours and route.color != GRAY and colours[0] != route.color:
        raise IllegalMoveError(WrongColour(route.a, route.b, route.color, colours[0], MapNames.of(rules)))


def _wild_range(rules: Rules, route: Route, hand: Counter[str]) -> range:
    if rules.wilds_only_on_tunnels and not route.tunnel:
        return range(1)
    return range(least_wilds(route), min(hand.get(WILD, 0), route.length) + 1)


def payment_options(rules: Rules, route: Route, hand: Counter[str]) -> list[Counter[str]]:
    """Every legal payment for `route` from `hand`, fewest wilds first."""
    colours = rules.colors if route.color == GRAY else (route.color,)
    found: list[Counter[str]] = []
    length = route.length
    held = hand.get
    new = dict.__new__  # a Counter built without `Counter.__init__`, which only fills it
    for wilds in _wild_range(rules, route, hand):
        plain = length - wilds
        if plain == 0:
            if held(WILD, 0) >= length:
                pay: Counter[str] = new(Counter)
                pay[WILD] = wilds
                found.append(pay)
            continue
        for colour in colours:
            if held(colour, 0) >= plain:
                pay = new(Counter)
                pay[colour] = plain
                if wilds:
                    pay[WILD] = wilds
                found.append(pay)
    return found


def nth_payment(rules: Rules, route: Route, hand: Counter[str], index: int) -> Payment:
    """`payment_of(payment_options(rules, route, hand)[index])`, built alone."""
    colours = rules.colors if route.color == GRAY else (route.color,)
    for wilds in _wild_range(rules, route, hand):
        plain = route.length - wilds
        if plain == 0:
            if hand.get(WILD, 0) >= route.length:
                if index == 0:
                    return ((WILD, wilds),)
                index -= 1
            continue
        for colour in colours:
            if hand.get(colour, 0) >= plain:
                if index == 0:
                    if not wilds:
                        return ((colour, plain),)
                    return ((colour, plain), (WILD, wilds)) if colour < WILD else ((WILD, wilds), (colour, plain))
                index -= 1
    raise IndexError("payment index out of range")


def can_pay(rules: Rules, route: Route, hand: Counter[str]) -> bool:
    wilds = _wild_range(rules, route, hand)
    if not wilds:
        return False
    most_wilds = wilds[-1]
    if most_wilds >= route.length:
        return True
    colours = rules.colors if route.color == GRAY else (route.color,)
    return any(hand[c] + most_wilds >= route.length for c in colours)
