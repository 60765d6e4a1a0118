"""What members typed that cannot be read, in words: cards, payments, routes, ticket numbers, durations.

bot/table/parsing.py reads the texts; each refusal it raises is worded here,
saying what would work.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from bot.present.cards import card_order_names
from bot.present.escape import ECHO_LIMIT, quoted
from maps import Rules

DURATION_EXAMPLE = '"12h", "2d", "30m" or "1d 12h"'


def too_long_text(most: int) -> str:
    return f"I cannot read that: it is too long (at most {most} characters)."


class Span(Enum):
    """What a typed duration is: its name, and what "none" means for it (None: "none" is not offered)."""

    DURATION = ("the duration", None)
    TURN_TIME = ("the turn time", "no clock")
    RESERVE = ("the reserve", "no reserve")
    EXTRA_TIME = ("the extra time", None)

    def __init__(self, title: str, zero: str | None) -> None:
        self.title = title
        self.zero = zero


def _cards_help(rules: Rules) -> str:
    return (
        f'Write the cards like "3 {rules.colors[0]} 1 {rules.wild_name}"; '
        f"the cards on this map are {', '.join(card_order_names(rules))}."
    )


def no_cards_text(rules: Rules) -> str:
    return f"No cards given. {_cards_help(rules)}"


def two_numbers_text(rules: Rules, count: int, token: str) -> str:
    return f"Two numbers in a row ({count} {token}). {_cards_help(rules)}"


def odd_count_text(rules: Rules, token: str) -> str:
    """A count that is not a plain whole number: signed, fractional, in another script, too long."""
    return f"{quoted(token)} is not a count of cards: write a whole number like 2. {_cards_help(rules)}"


def not_a_card_text(rules: Rules, token: str) -> str:
    return f"{quoted(token)} is not a card on this map. {_cards_help(rules)}"


def number_without_card_text(rules: Rules, count: int) -> str:
    return f"The number {count} is not followed by a card. {_cards_help(rules)}"


def count_below_one_text(rules: Rules) -> str:
    return f"Every count must be at least 1. {_cards_help(rules)}"


def pay_code_text() -> str:
    """A payment code in a control that is not one this bot writes."""
    return "That payment is not one I offered. Pick one from the menu `/ttr claim` shows."


def no_route_number_text(number: str) -> str:
    number = number if len(number) <= ECHO_LIMIT else number[: ECHO_LIMIT - 1] + "…"
    return f"There is no route number {number}. Pick a route from the list `/ttr claim` offers."


def unreadable_route_text(text: str, a: str, b: str) -> str:
    """A route text that names no two places; `a` and `b` are the ends of an example route."""
    return f'I cannot read {quoted(text)} as a route. Pick one from the list, or write it like "{a} - {b}".'


def ambiguous_place_text(typed: str, places: Sequence[str]) -> str:
    """A typed place name that could be several places."""
    return f"{quoted(typed)} could be {', '.join(places[:-1])} or {places[-1]}: write more of the name."


def no_route_between_text(a: str, b: str) -> str:
    return f"There is no route between {a} and {b}."


def _listing(labels: Sequence[str]) -> str:
    return "; ".join(f"{i}. {label}" for i, label in enumerate(labels, start=1))


def not_a_ticket_number_text(pick: str, labels: Sequence[str]) -> str:
    """A kept ticket's number that is not on the list; `labels` are the offered tickets in list order."""
    return (
        f"{quoted(pick)} is not one of the numbers 1 to {len(labels)}. "
        f'Write them like "1 3". The choice: {_listing(labels)}.'
    )


def too_few_kept_text(least: int, labels: Sequence[str]) -> str:
    return f'Keep at least {least}: write their numbers like "1 3". The choice: {_listing(labels)}.'


def unreadable_duration_text(text: str, span: Span) -> str:
    none = f', or "none" for {span.zero}' if span.zero else ""
    return f"I cannot read {quoted(text)} as {span.title}. Write it like {DURATION_EXAMPLE}{none}."


def duration_range_text(text: str, span: Span) -> str:
    return f"{span.title.capitalize()} must be from 1 second to 366 days, not {quoted(text)}."


def unreadable_reminders_text(text: str) -> str:
    return (
        f'I cannot read {quoted(text)} as reminders. Write the moments as parts of the turn, like "50% 90%", or "none".'
    )


def reminder_range_text(word: str) -> str:
    return f"A reminder must fall within the turn (between 0% and 100%), not {quoted(word)}."


def not_offered_text() -> str:
    """A menu choice or button that sent a value no menu or button of this bot offers."""
    return "That choice is not one I offered. Open the menu again and pick from it."
