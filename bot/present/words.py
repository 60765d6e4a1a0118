"""The English words every text is built from: card names and counted nouns.

One home for them, so a channel message, a private answer, an image and its
alt text all name a card and count a thing alike.
"""

from __future__ import annotations

from maps import WILD, Rules


def card_name(rules: Rules, card: str) -> str:
    """A card as players call it on this map: the wild has each map's own name (locomotive, joker, ferry card)."""
    return rules.wild_name if card == WILD else card


def card_count(rules: Rules, card: str, count: int) -> str:
    """ "3 pink", "1 locomotive", "2 jokers", "2 ferry cards": a colour is written as it is, the wild is counted."""
    return plural(count, card_name(rules, card)) if card == WILD else f"{count} {card}"


def plural(count: int, word: str) -> str:
    """`count` and `word` in the right number; piece names come plural ("trains", "cable cars").

    plural(1, "trains") == "1 train", plural(2, "card") == "2 cards", plural(2, "trains") == "2 trains".
    """
    if count == 1:
        return f"{count} {word[:-1] if word.endswith('s') else word}"
    return f"{count} {word if word.endswith('s') else word + 's'}"
