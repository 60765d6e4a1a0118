"""A member's planned turn in words, for that member alone: the plan as set, and what it did when the turn came
(which step was played, why each step before it did not apply, where the turn waits for them).

Each step is said with the map's own words (its cards, its tickets); the engine's refusals in the reader's
language (bot/present/rule_errors.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.cards import format_cards
from bot.present.events import private_text
from bot.present.i18n import _, map_
from bot.present.layout import clip
from bot.present.names import map_title_of
from bot.present.rule_errors import rule_error_text
from bot.present.suggestions import route_label
from bot.present.words import card_name, tickets_plural
from bot.service import GameInfo
from bot.service.plan_eval import DECK, Ending, ItemKind, PlanItem, StopReason
from bot.service.plans import PlanView
from bot.service.results import PlannedTurn
from engine import Refusal
from maps import WILD, Board, Rules, load_board


def item_text(board: Board, item: PlanItem) -> str:
    """One step of a plan: "claim Denver - Omaha (red, 4), paying 4 red", "take a face-up red, then ..."."""
    rules = board.rules
    if item.kind is ItemKind.CLAIM:
        route = board.routes[item.route] if item.route is not None and 0 <= item.route < len(board.routes) else None
        label = route_label(route) if route is not None else str(item.route)
        if item.pay is None:
            return map_(rules.name, "claim {route} if it is free and you can, paying as the claim menu would").format(
                route=label
            )
        cards = format_cards(rules, dict(item.pay))
        text = map_(rules.name, "claim {route} if it is free and you can, paying {cards}")
        return text.format(route=label, cards=cards)
    if item.kind is ItemKind.CARDS:
        first = card_name(rules, str(item.first))
        if item.second in (None, DECK):
            return _("take a face-up {first} if one is showing, then a card from the deck").format(first=first)
        second = card_name(rules, str(item.second))
        return _(
            "take a face-up {first} if one is showing, then a face-up {second} (else a card from the deck)"
        ).format(first=first, second=second)
    if item.kind is ItemKind.DECK:
        return _("draw two cards from the deck")
    return _("draw {tickets} (then you choose which to keep)").format(tickets=tickets_plural(rules))


def plan_lines(board: Board, items: Sequence[PlanItem]) -> list[str]:
    return [f"{n}. {item_text(board, item)}" for n, item in enumerate(items, start=1)]


def plan_text(view: PlanView, *, suggested: bool = False) -> str:
    """`/ttr plan show`: the member's plan, step by step (or that there is none)."""
    board = load_board(view.map)
    if not view.items:
        return _(
            "You have no plan for your next turn in game #{game_id}. Add a step with `/ttr plan` and `step`."
        ).format(game_id=view.game_id)
    if suggested:
        head = _("Suggested by the autopilot, if nothing changes before your turn (your plan now, change it freely):")
    else:
        head = _("Your plan for your next turn in game #{game_id}, tried in this order:").format(game_id=view.game_id)
    tail = _("The first step that can be played is played as your turn comes; if none can, the turn waits for you.")
    return clip("\n".join([head, *plan_lines(board, view.items), tail]))


def plan_step_needs_text(rules: Rules, kind: ItemKind | None) -> str:
    """What a step needs, told when it was not given (or could not be read)."""
    if kind is ItemKind.CLAIM:
        return map_(rules.name, "To plan a claim, name the route (`route`), and the cards to pay if you like (`pay`).")
    if kind is ItemKind.CARDS:
        cards = ", ".join(card_name(rules, c) for c in (*rules.colors, WILD))
        return _(
            "To plan taking face-up cards, name the card to take first (`card`), and the second if you like "
            "(`second`): one of {cards}."
        ).format(cards=cards)
    text = map_(
        rules.name, "Choose a step: claim a route, take face-up cards, draw two from the deck, or draw {tickets}."
    )
    return text.format(tickets=tickets_plural(rules))


def plan_cleared_text(had: bool) -> str:
    return _("Your plan is cleared.") if had else _("You had no plan to clear.")


def _why(board: Board, refusal: Refusal | None) -> str:
    if refusal is None:
        return _("your cards cannot pay for it")
    return rule_error_text(refusal, board.rules)


def stop_text(board: Board, planned: PlannedTurn) -> str:
    outcome = planned.outcome
    if outcome.stop is StopReason.TUNNEL:
        return _("The tunnel asks for more cards: the turn waits for you to pay them or give the tunnel up.")
    if outcome.stop is StopReason.TICKETS:
        return _("The turn waits for you to choose which {tickets} to keep.").format(
            tickets=tickets_plural(board.rules)
        )
    why = _why(board, outcome.refusal)
    if outcome.stop is StopReason.SOUVENIR:
        return _("Your next step needs a choice your plan did not make ({why}): the turn waits for you.").format(
            why=why
        )
    return _("The second card could not be drawn as planned ({why}): the turn waits for you to draw it.").format(
        why=why
    )


def planned_dm(info: GameInfo, url: str, planned: PlannedTurn) -> str:
    """The DM: what the member's plan did when their turn came, and why the steps before it did not apply."""
    board = load_board(info.map)
    head = _("Your turn came in your {title} game #{game_id} in <#{channel_id}>, and your plan was used:").format(
        title=map_title_of(info.title), game_id=info.id, channel_id=info.channel_id
    )
    lines = [head]
    for skipped in planned.outcome.skipped:
        lines.append(
            _("- Step {n} did not apply ({step}): {why}.").format(
                n=skipped.index + 1, step=item_text(board, skipped.item), why=_why(board, skipped.refusal)
            )
        )
    outcome = planned.outcome
    if outcome.played is not None:
        step = item_text(board, planned.items[outcome.played])
        lines.append(_("- Step {n} was played: {step}.").format(n=outcome.played + 1, step=step))
        lines += [f"- {private_text(info, e)}" for e in planned.private]
    if outcome.ending is Ending.WAITS:
        lines.append(stop_text(board, planned))
    elif outcome.ending is Ending.NONE_APPLIED:
        lines.append(_("No step of your plan could be played: the turn waits for you."))
    lines.append(url)
    return clip("\n".join(lines))


def plan_menu_options(rules: Rules) -> list[tuple[str, str]]:
    """The hand panel's plan menu: (value, label) of each choice (claims and face-up cards: `/ttr plan`)."""
    return [
        ("deck", _("Plan: draw two cards from the deck")),
        ("tickets", _("Plan: draw {tickets}").format(tickets=tickets_plural(rules))),
        ("suggest", _("Plan: the autopilot's suggestion")),
        ("show", _("Show my plan")),
        ("clear", _("Clear my plan")),
    ]


def plan_menu_placeholder() -> str:
    return _("Plan your next turn...")


def plan_menu_hint(rules: Rules) -> str:
    return map_(rules.name, "To plan a claim or face-up cards, use `/ttr plan`.")
