"""Claiming in words: why a route cannot be claimed now, and the questions and lists on the way to a claim."""

from __future__ import annotations

from bot.present.stage import must_text
from bot.present.words import card_name, plural
from bot.service.choices import ClaimBlock, ClaimRefusal
from maps import WILD, Rules

CLAIM_HINT = " The `route` list of `/ttr claim` shows only the routes you can claim now."
MENU_LIMIT = 100  # routes one menu list can show


def claim_refusal_text(rules: Rules, refusal: ClaimRefusal) -> str:
    """Why a claim cannot be made, in words."""
    block, route = refusal.block, refusal.route
    if block is ClaimBlock.NOT_UNDER_WAY:
        return "Routes can be claimed once the game is under way."
    if block is ClaimBlock.NOT_YOUR_TURN:
        return f"It is not your turn: {refusal.to_move} is to move. You will be mentioned when it is yours."
    if block is ClaimBlock.FINISH_FIRST:
        assert refusal.must is not None
        return f"First {must_text(rules, refusal.must)}."
    assert route is not None
    if block is ClaimBlock.ROUTE_TAKEN:
        return f"You cannot claim {route.label()}: {refusal.reason}.{CLAIM_HINT}"
    if block is ClaimBlock.TOO_FEW_TRAINS:
        need = f"it needs {plural(refusal.needs, rules.piece_name)}, you have {refusal.has}"
        return f"You cannot claim {route.label()}: {need}.{CLAIM_HINT}"
    colour = "cards of one colour" if route.color == "gray" else f"{route.color} cards"
    return (
        f"Your cards cannot pay for {route.label()}: it takes {route.length} {colour} "
        f"({card_name(rules, WILD)}s count as any colour where the map allows).{CLAIM_HINT}"
    )


def payment_prompt(route_label: str) -> str:
    return f"{route_label} can be paid in several colours: choose how."


def souvenir_prompt() -> str:
    return "Both ends hold a souvenir you do not have yet: choose one."


def nothing_claimable_text() -> str:
    return "No route can be claimed with your cards now: draw cards (or tickets) instead. `/ttr hand` shows your cards."


def claimable_text(count: int) -> str:
    """How many routes the member may claim now (the menus show at most MENU_LIMIT of them)."""
    more = "" if count <= MENU_LIMIT else " More routes are open to you than fit here: `/ttr claim` lists them all."
    return f"You can claim {plural(count, 'route')} now.{more}"
