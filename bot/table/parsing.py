"""Reading what members type and what controls send back: cards, payments, routes, ticket numbers, durations.

Every function here turns text into the values the game service takes, or
refuses with a message that says what would work. Nothing here decides
whether a move is allowed: that is the service's (and the engine's) answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import cache

from bot.present.misread import (
    Span,
    ambiguous_place_text,
    count_below_one_text,
    duration_range_text,
    no_cards_text,
    no_route_between_text,
    no_route_number_text,
    not_a_card_text,
    not_a_ticket_number_text,
    number_without_card_text,
    odd_count_text,
    reminder_range_text,
    too_few_kept_text,
    too_long_text,
    two_numbers_text,
    unreadable_duration_text,
    unreadable_reminders_text,
    unreadable_route_text,
)
from bot.present.typed import COLOUR_WORDS, DECK_WORDS, DURATION_JOINERS, FILLER_WORDS, TIME_UNITS, WILD_WORDS
from bot.present.typed import NONE_WORDS as TYPED_NONE_WORDS
from bot.service.clock import MAX_SECONDS
from bot.service.kinds import Language
from bot.views.replies import Refusal
from maps import GRAY, WILD, Board, Route, Rules
from maps.names import fold

# ----- bounds ------------------------------------------------------------------------

# Longer texts are refused before anything else reads them (a route name, a payment, a duration is short).
MAX_TEXT = 200
# A count of cards, a ticket's number, a route's number: whole, unsigned, ASCII, at most this many digits.
MAX_DIGITS = 4


def check_length(text: str) -> str:
    """`text`, unless it is too long to be anything a member means; refused then."""
    if len(text) > MAX_TEXT:
        raise Refusal(too_long_text(MAX_TEXT))
    return text


def small_number(text: str) -> int | None:
    """The value of a plain number ("3", "12"): ASCII digits only, no sign, point or exponent; None otherwise."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text)
    return None


# ----- cards and payments -----------------------------------------------------------


class CardTextError(ValueError):
    """A payment text that cannot be read; the message says what would work."""


def _names(rules: Rules) -> dict[str, str]:
    """Every way to write a card in every language (folded: see bot/present/typed.py) -> the card."""
    return _card_names(rules.colors, rules.wild_name)


@cache
def _card_names(colours: tuple[str, ...], wild_name: str) -> dict[str, str]:
    names: dict[str, str] = {}
    for language in Language:  # other languages' words first: the map's own English names win a clash
        if language is Language.EN:
            continue
        candidates: dict[str, list[str]] = {}
        for colour, words in COLOUR_WORDS.get(language, {}).items():
            for word in words:
                candidates.setdefault(fold(word), []).append(colour)
        for word, colours_named in candidates.items():
            found = [c for c in colours_named if c in colours]
            if found:
                names[word] = found[0]
        for words in WILD_WORDS.get(language, {}).values():
            for word in words:
                names[fold(word)] = WILD
    for colour in colours:
        names[colour] = colour
        names[colour + "s"] = colour
    wild = wild_name.lower()
    short = wild.removesuffix(" card")  # "ferry card": "ferry" and "ferries" too
    shorts = (short, short[:-1] + "ies" if short.endswith("y") else short + "s") if short != wild else ()
    for word in (*WILD_WORDS[Language.EN][""], wild, wild + "s", *shorts, WILD):
        names[word] = WILD
    return names


@cache
def _deck_words() -> frozenset[str]:
    return frozenset(fold(word) for words in DECK_WORDS.values() for word in words)


def parse_draw(rules: Rules, text: str) -> str | None:
    """A draw as typed ("deck", "red", "locos", "högen", "punainen") as the engine names it; None: no card."""
    word = fold(text)
    if word in _deck_words():
        return "deck"
    return _names(rules).get(word)


def parse_cards(rules: Rules, text: str) -> Counter[str]:
    """Read "3 pink 1 locomotive" (also "3 pink, 1 loco", "pink 3", "2x red + 1 wild") as card counts."""
    names = _names(rules)
    if len(text) > MAX_TEXT:
        raise CardTextError(too_long_text(MAX_TEXT))
    tokens = [t for t in _card_tokens(rules, text.lower()) if t not in FILLER_WORDS]
    if not tokens:
        raise CardTextError(no_cards_text(rules))
    cards: Counter[str] = Counter()
    count: int | None = None
    i = 0
    pending_card: str | None = None
    while i < len(tokens):
        token = tokens[i]
        number = small_number(token)
        if number is not None:
            if pending_card is not None:  # "pink 3"
                cards[pending_card] += number
                pending_card = None
            elif count is not None:
                raise CardTextError(two_numbers_text(rules, count, token))
            else:
                count = number
            i += 1
            continue
        # the longest run of words that names a card ("ferry card" is one name)
        card = None
        for width in (3, 2, 1):
            phrase = " ".join(tokens[i : i + width])
            if phrase in names:
                card, i = names[phrase], i + width
                break
        if card is None:
            raise CardTextError(not_a_card_text(rules, token))
        if pending_card is not None:
            cards[pending_card] += 1
        if count is None:
            pending_card = card
        else:
            cards[card] += count
            count = None
    if count is not None:
        raise CardTextError(number_without_card_text(rules, count))
    if pending_card is not None:
        cards[pending_card] += 1
    if any(n <= 0 for n in cards.values()):
        raise CardTextError(count_below_one_text(rules))
    return cards


_CHUNK = re.compile(r"[+\-\u2212]?[\w.]+")
_COUNT = re.compile(rf"([0-9]{{1,{MAX_DIGITS}}})x?", re.ASCII)


def _card_tokens(rules: Rules, text: str) -> list[str]:
    """The words and counts of a payment text; a count that is not a plain whole number ("-1", "1.5", "0x2",
    "²", "1e3", non-ASCII digits) is refused, not read as some other number."""
    tokens: list[str] = []
    for chunk in _CHUNK.findall(text):
        if any(c.isdigit() or c.isnumeric() for c in chunk):
            count = _COUNT.fullmatch(chunk)
            if count is None:
                raise CardTextError(odd_count_text(rules, chunk))
            tokens.append(count.group(1))
        else:
            tokens += [fold(word) for word in re.findall(r"[^\W\d_]+", chunk)]
    return tokens


# ----- routes ------------------------------------------------------------------------

_GRAY_WORDS = frozenset({"gray", "grey", "gra", "grått", "gratt", "graa", "gråa", "harmaa", "harmaata"})


def find_routes(board: Board, text: str) -> list[Route]:
    """The routes a player's text names: a route id (what the autocomplete sends) or "A - B (colour, ...)"."""
    text = " ".join(check_length(text).split())
    if text.isdigit():
        index = small_number(text)
        if index is not None and 0 <= index < len(board.routes):
            return [board.routes[index]]
        raise Refusal(no_route_number_text(text, board.rules.name))
    match = re.fullmatch(r"(.*?)\s*(?:\(([^)]*)\)?)?", text)
    assert match is not None
    main, extra = match.group(1), match.group(2)
    ends = _split_ends(board, main)
    if ends is None:
        raise Refusal(unreadable_route_text(text, board.routes[0].a, board.routes[0].b, board.rules.name))
    a, b = ends
    routes = board.routes_between(a, b)
    if not routes:
        raise Refusal(no_route_between_text(a, b, board.rules.name))
    if extra:
        colour = _route_colour(board, extra.split(",")[0])
        coloured = [r for r in routes if r.color == colour]
        if coloured:
            routes = coloured
    return routes


def _route_colour(board: Board, text: str) -> str:
    """A route's colour as typed in any language ("red", "röd", "punainen", "grå", "harmaa") -> its colour."""
    word = fold(text)
    if word in _GRAY_WORDS:
        return GRAY
    named = _card_names(tuple(sorted({r.color for r in board.routes} - {GRAY})), "")
    found = named.get(word)
    return found if found is not None and found != WILD else word


def route_matches(board: Board, route: Route, typed: str) -> bool:
    """Whether what a member is typing could be this route: every typed word is in its label or in a name or
    alias of one of its ends, accents, case and punctuation ignored ("zurich gen" finds Genève - Zürich)."""
    names = [route.label()] + [alias for alias, place in board.aliases.items() if place in route.ends]
    written = " ".join(fold(name) for name in names)
    return all(word in written for word in fold(typed).split())


def _split_ends(board: Board, text: str) -> tuple[str, str] | None:
    """The two places a route text names ("Zurich - Geneva"); refused when an end could be several places."""
    unsure: tuple[str, tuple[str, ...]] | None = None
    for separator in (" - ", " to ", "-", " – "):
        pieces = text.split(separator)
        for cut in range(1, len(pieces)):
            ends = [separator.join(part).strip() for part in (pieces[:cut], pieces[cut:])]
            found = [board.place_candidates(end) for end in ends]
            if all(len(f) == 1 for f in found):
                return found[0][0], found[1][0]
            if unsure is None and all(found):
                unsure = next((end, f) for end, f in zip(ends, found, strict=True) if len(f) > 1)
    if unsure is not None:
        raise Refusal(ambiguous_place_text(*unsure))
    return None


# ----- ticket numbers ----------------------------------------------------------------


def parse_keep_numbers(text: str, offered: Sequence[tuple[int, str]], least: int) -> list[int]:
    """The tickets kept, from their numbers as listed ("1 3"); `offered` is (ticket id, label) in list order."""
    labels = [label for _, label in offered]
    chosen: list[int] = []
    for pick in re.findall(r"\d+|\S+", check_length(text)):
        if pick in (",", ";", "and", "och", "ja"):
            continue
        number = small_number(pick)
        if number is None or not 1 <= number <= len(offered):
            raise Refusal(not_a_ticket_number_text(pick, labels))
        ticket = offered[number - 1][0]
        if ticket not in chosen:
            chosen.append(ticket)
    if len(chosen) < least:
        raise Refusal(too_few_kept_text(least, labels))
    return chosen


# ----- durations ---------------------------------------------------------------------


def _bare(text: str) -> str:
    """`text` in lower case without accents (NFD without combining marks: "²" stays itself, not "2")."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# every language's time units and "none" words, without accents ("päivää" is read as "paivaa")
UNITS = {_bare(unit): seconds for units in TIME_UNITS.values() for unit, seconds in units.items()}
NONE_WORDS = {_bare(word) for words in TYPED_NONE_WORDS.values() for word in words} | {"no clock"}
_DECIMAL_COMMA = re.compile(r"([0-9]),([0-9])", re.ASCII)  # "1,5 t": a decimal comma, as Swedes and Finns write
_PART = re.compile(r"([0-9]{1,9}(?:\.[0-9]{1,6})?)\s*([a-z]+)", re.ASCII)
_FRACTION = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,6})?|\.[0-9]{1,6}", re.ASCII)


class DurationError(ValueError):
    """A duration that cannot be read; the message says how to write one."""


def parse_duration(text: str, *, span: Span = Span.DURATION) -> int | None:
    """Seconds of a duration like "12h", "2d", "1d 12h", "90 min"; None for "none" (or "0", "off").

    `span`: what the duration is, for the error message only.
    """
    if len(text) > MAX_TEXT:
        raise DurationError(too_long_text(MAX_TEXT))
    cleaned = " ".join(_bare(_DECIMAL_COMMA.sub(r"\1.\2", text)).replace(",", " ").split())
    if cleaned in NONE_WORDS:
        return None
    cleaned = " ".join(word for word in cleaned.split() if word not in DURATION_JOINERS)
    if cleaned in NONE_WORDS:
        return None
    compact = cleaned.replace(" ", "")
    parts = _PART.findall(cleaned)
    if not parts or "".join(f"{n}{u}" for n, u in parts) != compact:
        raise DurationError(unreadable_duration_text(text, span))
    total = 0.0
    for number, unit in parts:
        if unit not in UNITS:
            raise DurationError(unreadable_duration_text(text, span))
        total += float(number) * UNITS[unit]
    seconds = round(total)
    if not 0 < seconds <= MAX_SECONDS:
        raise DurationError(duration_range_text(text, span))
    return seconds


def read_duration(text: str, span: Span) -> int | None:
    """`parse_duration`, refusing the member with its message."""
    try:
        return parse_duration(text, span=span)
    except DurationError as exc:
        raise Refusal(str(exc)) from None


def parse_reminders(text: str) -> list[float]:
    """When to remind, as fractions of a turn: "50% 90%" (or "50 90", "0.5, 0.9") -> [0.5, 0.9]; "none" -> []."""
    if len(text) > MAX_TEXT:
        raise DurationError(too_long_text(MAX_TEXT))
    cleaned = _bare(text).replace(",", " ").replace("%", " % ").split()
    if not cleaned or " ".join(cleaned) in NONE_WORDS:
        return []
    fractions: list[float] = []
    for word in cleaned:
        if word == "%":
            continue
        if not _FRACTION.fullmatch(word):  # not float(): it reads "nan", "1e3", "1_0" and other scripts' digits
            raise DurationError(unreadable_reminders_text(text))
        value = float(word)
        fraction = value / 100 if value >= 1 else value
        if not 0 < fraction < 1:
            raise DurationError(reminder_range_text(word))
        fractions.append(round(fraction, 4))
    return sorted(set(fractions))
