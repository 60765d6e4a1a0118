"""Confirmations in words: drawing tickets, a claim with its payment, and a member's own settings."""

from __future__ import annotations

from collections.abc import Mapping

from bot.present.cards import format_cards
from bot.present.words import plural
from bot.service.member_settings import MemberSettings
from maps import Route, Rules

CONFIRM_LABEL = "Confirm"
CANCEL_LABEL = "Cancel"


def draw_tickets_label(rules: Rules) -> str:
    """The turn message's button that draws tickets."""
    return f"Draw {rules.ticket_name}s"


def draw_tickets_question(rules: Rules) -> str:
    what = plural(rules.draw_tickets, f"destination {rules.ticket_name}")
    return (
        f"Draw {what} (this is your whole turn)? You keep at least {rules.draw_keep} of them. "
        f"Your own {rules.ticket_name}s are under *My hand*. `/ttr settings confirmations:off` skips this question."
    )


def route_kind(route: Route) -> str:
    """track, ferry or tunnel, in words."""
    if route.tunnel:
        return "tunnel (more cards may be asked when it is claimed)"
    if route.ferries:
        return f"ferry ({plural(route.ferries, 'space')} paid with wild cards)"
    return "track"


def claim_question(rules: Rules, route: Route, pay: Mapping[str, int], others: int) -> str:
    """The route, the exact payment, and whether other payments can be chosen."""
    lines = [
        f"Claim **{route.label()}**?",
        f"{route.a} to {route.b}: {plural(route.length, 'space')}, {route.color}, {route_kind(route)}.",
        f"You pay: {format_cards(rules, pay)}.",
    ]
    if others:
        lines.append(f"{plural(others, 'other payment')} possible: choose one in the menu to pay that way instead.")
    return "\n".join(lines)


def cancelled_text() -> str:
    return "Cancelled: nothing was done. You can still make any move."


def member_settings_text(settings: MemberSettings, *, changed: bool) -> str:
    state = "on" if settings.confirmations else "off"
    what = (
        "*Draw tickets* and a route chosen from the claim menu (or `/ttr claim` without `pay`) ask you to confirm first"
        if settings.confirmations
        else "*Draw tickets* and a route chosen from the claim menu act at once"
    )
    head = "Saved. " if changed else ""
    return (
        f"{head}Your settings (the same in every server):\n"
        f"- confirmations: **{state}**: {what}. Change with `/ttr settings confirmations:on` or `off`."
    )


def on_or_off_text() -> str:
    return "Confirmations are `on` or `off`: nothing was changed."
