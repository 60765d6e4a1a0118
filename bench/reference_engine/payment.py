"""How a route may be paid: one colour plus wilds, ferries, tunnel-only wilds."""

from __future__ import annotations

from collections import Counter

from bench.reference_engine.errors import IllegalMoveError, InvalidMoveError
from maps import GRAY, WILD, Route, Rules


def wild_word(rules: Rules) -> str:
    return "locomotives" if rules.wild_name == "locomotive" else f"{rules.wild_name}s"


def check_card_names(rules: Rules, pay: Counter[str]) -> None:
    for card in pay:
        if card != WILD and card not in rules.colors:
            names = ", ".join((*rules.colors, WILD))
            raise InvalidMoveError(f"'{card}' is not a card on this map; the cards are {names}")


def check_in_hand(rules: Rules, pay: Counter[str], hand: Counter[str]) -> None:
    for card, n in sorted(pay.items()):
        if hand[card] < n:
            have = hand[card]
            raise IllegalMoveError(f"you pay {n} {card} but hold only {have} {card} card{'s' if have != 1 else ''}")


def check_payment(rules: Rules, route: Route, pay: Counter[str], hand: Counter[str]) -> None:
    """Raise a player-facing error unless `pay` is a legal payment for `route`."""
    check_card_names(rules, pay)
    total = sum(pay.values())
    if total != route.length:
        raise IllegalMoveError(f"{route.a} - {route.b} takes {route.length} cards; you paid {total}")
    check_in_hand(rules, pay, hand)
    colours = sorted(c for c in pay if c != WILD)
    wilds = pay[WILD]
    if len(colours) > 1:
        raise IllegalMoveError(f"pay with one colour (plus {wild_word(rules)}), not {' and '.join(colours)}")
    if wilds and rules.wilds_only_on_tunnels and not route.tunnel:
        raise IllegalMoveError(f"{wild_word(rules)} may be played only on tunnels on this map")
    if colours and route.color != GRAY and colours[0] != route.color:
        raise IllegalMoveError(f"{route.a} - {route.b} is {route.color}: pay {route.color} cards, not {colours[0]}")
    if wilds < route.ferries:
        raise IllegalMoveError(f"this ferry needs {route.ferries} {wild_word(rules)[:-1]}(s)")


def _wild_range(rules: Rules, route: Route, hand: Counter[str]) -> range:
    if rules.wilds_only_on_tunnels and not route.tunnel:
        return range(1)
    return range(route.ferries, min(hand[WILD], route.length) + 1)


def payment_options(rules: Rules, route: Route, hand: Counter[str]) -> list[Counter[str]]:
    """Every legal payment for `route` from `hand`, fewest wilds first."""
    colours = list(rules.colors) if route.color == GRAY else [route.color]
    found: list[Counter[str]] = []
    all_wild_seen = False
    for wilds in _wild_range(rules, route, hand):
        plain = route.length - wilds
        if plain == 0:
            if not all_wild_seen and hand[WILD] >= route.length:
                found.append(Counter({WILD: wilds}))
                all_wild_seen = True
            continue
        for colour in colours:
            if hand[colour] >= plain:
                pay = Counter({colour: plain})
                if wilds:
                    pay[WILD] = wilds
                found.append(pay)
    return found


def can_pay(rules: Rules, route: Route, hand: Counter[str]) -> bool:
    wilds = _wild_range(rules, route, hand)
    if not wilds:
        return False
    most_wilds = wilds[-1]
    if most_wilds >= route.length:
        return True
    colours = rules.colors if route.color == GRAY else (route.color,)
    return any(hand[c] + most_wilds >= route.length for c in colours)


def tunnel_surcharge(colour: str | None, revealed: list[str]) -> int:
    """Extra cards a tunnel demands; `colour` None means the payment was all wilds."""
    if colour is None:
        return sum(1 for c in revealed if c == WILD)
    return sum(1 for c in revealed if c in (colour, WILD))


def tunnel_options(colour: str | None, surcharge: int, hand: Counter[str]) -> list[Counter[str]]:
    """Every way to pay a tunnel surcharge from `hand`, fewest wilds first."""
    if colour is None:
        return [Counter({WILD: surcharge})] if hand[WILD] >= surcharge else []
    found = []
    for wilds in range(min(hand[WILD], surcharge) + 1):
        plain = surcharge - wilds
        if hand[colour] >= plain:
            found.append(Counter({k: v for k, v in ((colour, plain), (WILD, wilds)) if v}))
    return found


def check_tunnel_payment(
    rules: Rules, colour: str | None, surcharge: int, pay: Counter[str], hand: Counter[str]
) -> None:
    check_card_names(rules, pay)
    total = sum(pay.values())
    if total != surcharge:
        raise IllegalMoveError(f"the tunnel asks for exactly {surcharge} more card(s); you paid {total}")
    allowed = {WILD} if colour is None else {colour, WILD}
    wrong = sorted(set(pay) - allowed)
    if wrong:
        what = wild_word(rules) if colour is None else f"{colour} or {wild_word(rules)}"
        raise IllegalMoveError(f"the tunnel surcharge must be paid in {what}, not {', '.join(wrong)}")
    check_in_hand(rules, pay, hand)
