"""The names of the maps' bonuses, in the language spoken: the longest path (India's Indian Express), India's
Grand Tour, Amsterdam's merchandise and San Francisco's souvenirs."""

from __future__ import annotations

from collections.abc import Callable

from bot.present.i18n import _, ngettext, npgettext, pgettext
from maps import Rules

# The longest-path bonus by map id: India calls it the Indian Express (in every language, as its rulebook).
LONGEST_NAMES: dict[str, Callable[[], str]] = {
    "usa": lambda: pgettext("USA", "longest continuous path"),
    "india": lambda: pgettext("India", "Indian Express"),
    "switzerland": lambda: pgettext("Switzerland", "longest continuous path"),
    "amsterdam": lambda: pgettext("Amsterdam", "longest continuous path"),
    "san_francisco": lambda: pgettext("San Francisco", "longest continuous path"),
}
LONGEST_SHORT_NAMES: dict[str, Callable[[], str]] = {
    "usa": lambda: pgettext("USA", "longest path"),
    "india": lambda: pgettext("India", "Indian Express"),
    "switzerland": lambda: pgettext("Switzerland", "longest path"),
    "amsterdam": lambda: pgettext("Amsterdam", "longest path"),
    "san_francisco": lambda: pgettext("San Francisco", "longest path"),
}


def longest_name(rules: Rules) -> str:
    """The map's longest-path bonus ("longest continuous path", "Indian Express"), as a name (no article)."""
    word = LONGEST_NAMES.get(rules.name)
    return word() if word else rules.longest_name


def longest_short_name(rules: Rules) -> str:
    """The same, short enough for a score row ("longest path", "Indian Express")."""
    word = LONGEST_SHORT_NAMES.get(rules.name)
    if word:
        return word()
    return pgettext("USA", "longest path") if rules.longest_name == "longest continuous path" else rules.longest_name


def mandala_name() -> str:
    """India's bonus for connected tickets: "Grand Tour (Mandala)"."""
    return pgettext("India", "Grand Tour (Mandala)")


def merchandise_counted(count: int) -> str:
    """ "3 merchandise" (a player's merchandise cards, as the status counts them)."""
    return npgettext("Amsterdam", "{count} merchandise", "{count} merchandise", count).format(count=count)


def souvenirs_counted(count: int) -> str:
    """ "1 souvenir", "4 souvenirs"."""
    return npgettext("San Francisco", "{count} souvenir", "{count} souvenirs", count).format(count=count)


def kinds_counted(count: int) -> str:
    """ "1 kind", "3 kinds" (of tourist souvenirs)."""
    return ngettext("{count} kind", "{count} kinds", count).format(count=count)


def souvenir_choice(symbol: str, place: str) -> str:
    """A souvenir to choose, by its tourist symbol and the place of its stack ("Alcatraz at Pier 39")."""
    return _("{symbol} at {place}").format(symbol=symbol, place=place)
