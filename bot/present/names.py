"""What things are called, in the language spoken: map titles, a game's status, a ticket's label, a seat's colour
and mark, and names joined with "and"."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.present.i18n import _, pgettext
from maps import MAP_NAMES, Board, Rules, Ticket, load_board

# Each map's title as players call it in their language (place names stay as the board has them).
MAP_TITLES: dict[str, Callable[[], str]] = {
    "USA": lambda: pgettext("map", "USA"),
    "India": lambda: pgettext("map", "India"),
    "Switzerland": lambda: pgettext("map", "Switzerland"),
    "Amsterdam": lambda: pgettext("map", "Amsterdam"),
    "San Francisco": lambda: pgettext("map", "San Francisco"),
}


def map_title(rules: Rules) -> str:
    """The map's title ("Switzerland", "Schweiz", "Sveitsi"); a new map's own title as it is."""
    return map_title_of(rules.title)


def map_title_of(title: str) -> str:
    """A map's title by its English title (a game's `info.title`), as players call it in the language spoken."""
    word = MAP_TITLES.get(title)
    return word() if word else title


def names_and(names: Sequence[str]) -> str:
    """ "ann", "ann and bob", "ann and bob and cy" (names joined as the language joins two)."""
    if not names:
        return ""
    joined = names[0]
    for name in names[1:]:
        joined = _("{names} and {last}").format(names=joined, last=name)
    return joined


# A seat's colour and the mark on its trains (render/palette.py), named in alt texts.
PLAYER_COLOURS: dict[str, Callable[[], str]] = {
    "blue": lambda: pgettext("player colour", "blue"),
    "vermilion": lambda: pgettext("player colour", "vermilion"),
    "bluish green": lambda: pgettext("player colour", "bluish green"),
    "reddish purple": lambda: pgettext("player colour", "reddish purple"),
    "sky blue": lambda: pgettext("player colour", "sky blue"),
}
MARKS: dict[str, Callable[[], str]] = {
    "circle": lambda: pgettext("mark", "circle"),
    "triangle": lambda: pgettext("mark", "triangle"),
    "square": lambda: pgettext("mark", "square"),
    "diamond": lambda: pgettext("mark", "diamond"),
    "cross": lambda: pgettext("mark", "cross"),
}


def player_colour_name(colour: str) -> str:
    word = PLAYER_COLOURS.get(colour)
    return word() if word else colour


def mark_name(mark: str) -> str:
    word = MARKS.get(mark)
    return word() if word else mark


def status_word(status: str) -> str:
    """A game's status ("lobby", "playing", "finished"...) in words; an unknown one as it is."""
    words = {
        "lobby": lambda: pgettext("game status", "lobby"),
        "setup": lambda: pgettext("game status", "setup"),
        "playing": lambda: pgettext("game status", "playing"),
        "finished": lambda: pgettext("game status", "finished"),
        "cancelled": lambda: pgettext("game status", "cancelled"),
    }
    word = words.get(status)
    return word() if word else status


def _board_of(rules: Rules) -> Board | None:
    return next((board for board in map(load_board, MAP_NAMES) if board.rules == rules), None)


def ticket_label(where: Board | Rules, ticket: Ticket | int) -> str:
    """A ticket as the board names it (`Ticket.label()`), the "to" of a country ticket in the language spoken:
    "Bern - Basel (5)", "Genève to France 10, Italia 12"."""
    board = where if isinstance(where, Board) else _board_of(where)
    if isinstance(ticket, int):
        if board is None:
            return str(ticket)
        found = board.tickets[ticket]
    else:
        found = ticket
    if not found.is_country_ticket:
        return found.label()
    targets = ", ".join(f"{t.name} {t.points}" for t in found.targets)
    return _("{origin} to {targets}").format(origin=found.origin, targets=targets)
