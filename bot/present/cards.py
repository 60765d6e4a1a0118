"""Cards as people write them: names, hands, payments like "3 pink 1 locomotive", and short codes for buttons."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from bot.present.words import card_name
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

_WILD_WORDS = ("wild", "wilds", "loco", "locos", "locomotive", "locomotives")


class CardTextError(ValueError):
    """A payment text that cannot be read; the message says what would work."""


def card_order(rules: Rules) -> list[str]:
    return [*rules.colors, WILD]


def format_cards(rules: Rules, cards: Mapping[str, int]) -> str:
    """ "3 pink, 1 locomotive" in the map's card order; "no cards" when empty."""
    parts = [f"{cards[c]} {card_name(rules, c)}" for c in card_order(rules) if cards.get(c, 0) > 0]
    return ", ".join(parts) or "no cards"


def _names(rules: Rules) -> dict[str, str]:
    """Every way to write a card (lower case, singular and plural) -> the card."""
    names: dict[str, str] = {}
    for colour in rules.colors:
        names[colour] = colour
        names[colour + "s"] = colour
    wild = rules.wild_name.lower()
    for word in (*_WILD_WORDS, wild, wild + "s", WILD):
        names[word] = WILD
    return names


def parse_draw(rules: Rules, text: str) -> str | None:
    """A draw as typed ("deck", "red", "locos") as the engine names it; None if it names no card."""
    word = " ".join(text.lower().split())
    if word in ("deck", "the deck", "blind", "draw from deck"):
        return "deck"
    return _names(rules).get(word)


def parse_cards(rules: Rules, text: str) -> Counter[str]:
    """Read "3 pink 1 locomotive" (also "3 pink, 1 loco", "pink 3", "2x red + 1 wild") as card counts."""
    names = _names(rules)
    tokens = [t for t in re.findall(r"\d+|[^\W\d_]+", text.lower()) if t not in ("and", "x")]
    help_text = (
        f'Write the cards like "3 {rules.colors[0]} 1 {rules.wild_name}"; '
        f"the cards on this map are {', '.join(card_order_names(rules))}."
    )
    if not tokens:
        raise CardTextError(f"No cards given. {help_text}")
    cards: Counter[str] = Counter()
    count: int | None = None
    i = 0
    pending_card: str | None = None
    while i < len(tokens):
        token = tokens[i]
        if token.isdigit():
            if pending_card is not None:  # "pink 3"
                cards[pending_card] += int(token)
                pending_card = None
            elif count is not None:
                raise CardTextError(f"Two numbers in a row ({count} {token}). {help_text}")
            else:
                count = int(token)
            i += 1
            continue
        # the longest run of words that names a card ("ferry card" is one name)
        card = None
        for width in (3, 2, 1):
            phrase = " ".join(tokens[i : i + width])
            if phrase in names:
                card, i = names[phrase], i + width
                break
        if card is None and token in ("card", "cards"):
            i += 1
            continue
        if card is None:
            raise CardTextError(f"'{token}' is not a card on this map. {help_text}")
        if pending_card is not None:
            cards[pending_card] += 1
        if count is None:
            pending_card = card
        else:
            cards[card] += count
            count = None
    if count is not None:
        raise CardTextError(f"The number {count} is not followed by a card. {help_text}")
    if pending_card is not None:
        cards[pending_card] += 1
    if any(n <= 0 for n in cards.values()):
        raise CardTextError(f"Every count must be at least 1. {help_text}")
    return cards


def card_order_names(rules: Rules) -> list[str]:
    return [card_name(rules, c) for c in card_order(rules)]


def pay_code(cards: Mapping[str, int]) -> str:
    """A payment in a custom id: "pink3+locomotive1"."""
    return "+".join(f"{c}{n}" for c, n in sorted(cards.items()) if n > 0)


def parse_pay_code(code: str) -> Counter[str]:
    cards: Counter[str] = Counter()
    for part in code.split("+"):
        match = re.fullmatch(r"([a-z_]+)(\d+)", part)
        if match is None:
            raise CardTextError(f"unreadable payment code {code!r}")
        cards[match.group(1)] += int(match.group(2))
    return cards
