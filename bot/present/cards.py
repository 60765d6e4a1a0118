"""Cards in words: their names on each map, hands and payments like "3 pink, 1 locomotive", their emoji."""

from __future__ import annotations

from collections.abc import Mapping

from bot.present.i18n import _
from bot.present.words import card_count, card_name
from maps import WILD, Rules

# One square per card colour, for buttons; the wild gets a rainbow.
CARD_EMOJI = {
    "red": "\N{LARGE RED SQUARE}",
    "blue": "\N{LARGE BLUE SQUARE}",
    "green": "\N{LARGE GREEN SQUARE}",
    "yellow": "\N{LARGE YELLOW SQUARE}",
    "orange": "\N{LARGE ORANGE SQUARE}",
    "purple": "\N{LARGE PURPLE SQUARE}",
    "black": "\N{BLACK LARGE SQUARE}",
    "white": "\N{WHITE LARGE SQUARE}",
    "pink": "\N{CHERRY BLOSSOM}",
    WILD: "\N{RAINBOW}",
}


def card_order(rules: Rules) -> list[str]:
    return [*rules.colors, WILD]


def format_cards(rules: Rules, cards: Mapping[str, int]) -> str:
    """ "3 pink, 1 locomotive" in the map's card order; "no cards" when empty."""
    parts = [card_count(rules, c, cards[c]) for c in card_order(rules) if cards.get(c, 0) > 0]
    return ", ".join(parts) or _("no cards")


def payment_text(rules: Rules, described: str) -> str:
    """A payment as a move's facts describe it ("1 red, 2 locomotive") in the map's words ("1 red, 2 jokers")."""
    parts = []
    for part in described.split(", "):
        count, _space, card = part.partition(" ")
        parts.append(card_count(rules, card, int(count)) if count.isdigit() and card else part)
    return ", ".join(parts)


def card_order_names(rules: Rules) -> list[str]:
    return [card_name(rules, c) for c in card_order(rules)]
