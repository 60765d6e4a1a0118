"""What members typed that cannot be read, in words: cards, payments, routes, ticket numbers, durations.

bot/table/parsing.py reads the texts (in every language); each refusal it
raises is worded here, in the language being spoken, saying what would work
with the words of that language (bot/present/typed.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from bot.present.cards import card_order_names
from bot.present.escape import ECHO_LIMIT, quoted
from bot.present.i18n import _, current_language, map_, ngettext, pgettext
from bot.present.typed import card_example, card_words
from bot.service.kinds import Language
from maps import Rules


def duration_examples() -> str:
    """How to write a duration, in the language being spoken (every language's units are read)."""
    return pgettext("duration examples", '"12h", "2d", "30m" or "1d 12h"')


def too_long_text(most: int) -> str:
    return ngettext(
        "I cannot read that: it is too long (at most {most} character).",
        "I cannot read that: it is too long (at most {most} characters).",
        most,
    ).format(most=most)


class Span(Enum):
    """What a typed duration is: its name, and what "none" means for it (None: "none" is not offered)."""

    DURATION = ("the duration", None)
    TURN_TIME = ("the turn time", "no clock")
    RESERVE = ("the reserve", "no reserve")
    EXTRA_TIME = ("the extra time", None)

    def __init__(self, title: str, zero: str | None) -> None:
        self.title = title
        self.zero = zero


def _card_list(rules: Rules) -> tuple[str, str]:
    """A payment as typed and the cards of the map, in the words of the language being spoken."""
    language = current_language()
    if language is Language.EN:
        return f"3 {rules.colors[0]} 1 {rules.wild_name}", ", ".join(card_order_names(rules))
    return card_example(language, rules), ", ".join(card_words(language, rules))


def _cards_help(rules: Rules) -> str:
    example, cards = _card_list(rules)
    return _('Write the cards like "{example}"; the cards on this map are {cards}.').format(
        example=example, cards=cards
    )


def no_cards_text(rules: Rules) -> str:
    return _("No cards given. {help}").format(help=_cards_help(rules))


def two_numbers_text(rules: Rules, count: int, token: str) -> str:
    return _("Two numbers in a row ({count} {token}). {help}").format(count=count, token=token, help=_cards_help(rules))


def odd_count_text(rules: Rules, token: str) -> str:
    """A count that is not a plain whole number: signed, fractional, in another script, too long."""
    return _("{token} is not a count of cards: write a whole number like 2. {help}").format(
        token=quoted(token), help=_cards_help(rules)
    )


def not_a_card_text(rules: Rules, token: str) -> str:
    return _("{token} is not a card on this map. {help}").format(token=quoted(token), help=_cards_help(rules))


def number_without_card_text(rules: Rules, count: int) -> str:
    return _("The number {count} is not followed by a card. {help}").format(count=count, help=_cards_help(rules))


def count_below_one_text(rules: Rules) -> str:
    return _("Every count must be at least 1. {help}").format(help=_cards_help(rules))


def pay_code_text() -> str:
    """A payment code in a control that is not one this bot writes."""
    return _("That payment is not one I offered. Pick one from the menu `/ttr claim` shows.")


def no_route_number_text(number: str, map_id: str = "") -> str:
    """`map_id`: the map's (its rulebook's words for a route)."""
    number = number if len(number) <= ECHO_LIMIT else number[: ECHO_LIMIT - 1] + "…"
    return map_(map_id, "There is no route number {number}. Pick a route from the list `/ttr claim` offers.").format(
        number=number
    )


def unreadable_route_text(text: str, a: str, b: str, map_id: str = "") -> str:
    """A route text that names no two places; `a` and `b` are the ends of an example route (`map_id`: the map's)."""
    text_ = map_(map_id, 'I cannot read {text} as a route. Pick one from the list, or write it like "{a} - {b}".')
    return text_.format(text=quoted(text), a=a, b=b)


def ambiguous_place_text(typed: str, places: Sequence[str]) -> str:
    """A typed place name that could be several places."""
    return _("{typed} could be {places} or {last}: write more of the name.").format(
        typed=quoted(typed), places=", ".join(places[:-1]), last=places[-1]
    )


def no_route_between_text(a: str, b: str, map_id: str = "") -> str:
    return map_(map_id, "There is no route between {a} and {b}.").format(a=a, b=b)


def _listing(labels: Sequence[str]) -> str:
    return "; ".join(f"{i}. {label}" for i, label in enumerate(labels, start=1))


def not_a_ticket_number_text(pick: str, labels: Sequence[str]) -> str:
    """A kept ticket's number that is not on the list; `labels` are the offered tickets in list order."""
    return _('{pick} is not one of the numbers 1 to {last}. Write them like "1 3". The choice: {listing}.').format(
        pick=quoted(pick), last=len(labels), listing=_listing(labels)
    )


def too_few_kept_text(least: int, labels: Sequence[str]) -> str:
    return _('Keep at least {least}: write their numbers like "1 3". The choice: {listing}.').format(
        least=least, listing=_listing(labels)
    )


def unreadable_duration_text(text: str, span: Span) -> str:
    shown, examples = quoted(text), duration_examples()
    if span is Span.TURN_TIME:
        return _('I cannot read {text} as the turn time. Write it like {examples}, or "none" for no clock.').format(
            text=shown, examples=examples
        )
    if span is Span.RESERVE:
        return _('I cannot read {text} as the reserve. Write it like {examples}, or "none" for no reserve.').format(
            text=shown, examples=examples
        )
    if span is Span.EXTRA_TIME:
        return _("I cannot read {text} as the extra time. Write it like {examples}.").format(
            text=shown, examples=examples
        )
    return _("I cannot read {text} as the duration. Write it like {examples}.").format(text=shown, examples=examples)


def duration_range_text(text: str, span: Span) -> str:
    shown = quoted(text)
    if span is Span.TURN_TIME:
        return _("The turn time must be from 1 second to 366 days, not {text}.").format(text=shown)
    if span is Span.RESERVE:
        return _("The reserve must be from 1 second to 366 days, not {text}.").format(text=shown)
    if span is Span.EXTRA_TIME:
        return _("The extra time must be from 1 second to 366 days, not {text}.").format(text=shown)
    return _("The duration must be from 1 second to 366 days, not {text}.").format(text=shown)


def unreadable_reminders_text(text: str) -> str:
    return _(
        'I cannot read {text} as reminders. Write the moments as parts of the turn, like "50% 90%", or "none".'
    ).format(text=quoted(text))


def reminder_range_text(word: str) -> str:
    return _("A reminder must fall within the turn (between 0% and 100%), not {word}.").format(word=quoted(word))


def not_offered_text() -> str:
    """A menu choice or button that sent a value no menu or button of this bot offers."""
    return _("That choice is not one I offered. Open the menu again and pick from it.")
