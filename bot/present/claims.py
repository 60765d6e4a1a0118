"""Claiming in words: why a route cannot be claimed now, and the questions and lists on the way to a claim."""

from __future__ import annotations

from bot.present.i18n import _, map_, ngettext, nmap_
from bot.present.misread import not_offered_text
from bot.present.rule_errors import rule_error_text
from bot.present.stage import must_text
from bot.present.suggestions import route_label
from bot.present.words import colour_name, pieces_counted, wilds_plural
from bot.service.choices import ClaimBlock, ClaimRefusal
from maps import Rules

MENU_LIMIT = 100  # routes one menu list can show


def claim_hint(rules: Rules) -> str:
    """Said after every refusal of a route: where to find the routes that can be claimed."""
    return map_(rules.name, "The `route` list of `/ttr claim` shows only the routes you can claim now.")


def claim_refusal_text(rules: Rules, refusal: ClaimRefusal) -> str:
    """Why a claim cannot be made, in words."""
    block, route = refusal.block, refusal.route
    if block is ClaimBlock.NOT_UNDER_WAY:
        return map_(rules.name, "Routes can be claimed once the game is under way.")
    if block is ClaimBlock.NOT_YOUR_TURN:
        return _("It is not your turn: {player} is to move. You will be mentioned when it is yours.").format(
            player=refusal.to_move
        )
    if block is ClaimBlock.FINISH_FIRST:
        assert refusal.must is not None
        return _("First {must}.").format(must=must_text(rules, refusal.must))
    if block is ClaimBlock.NOT_OFFERED:
        return not_offered_text()
    assert route is not None
    if block is ClaimBlock.ROUTE_TAKEN:
        assert refusal.reason is not None
        reason = rule_error_text(refusal.reason, rules)
        why = map_(rules.name, "You cannot claim {route}: {reason}.").format(route=route_label(route), reason=reason)
    elif block is ClaimBlock.TOO_FEW_TRAINS:
        why = map_(rules.name, "You cannot claim {route}: it needs {pieces}, you have {has}.").format(
            route=route_label(route), pieces=pieces_counted(rules, refusal.needs), has=refusal.has
        )
    elif route.color == "gray":
        why = ngettext(
            "Your cards cannot pay for {route}: it takes {count} card of one colour "
            "({wilds} count as any colour where the map allows).",
            "Your cards cannot pay for {route}: it takes {count} cards of one colour "
            "({wilds} count as any colour where the map allows).",
            route.length,
        ).format(route=route_label(route), count=route.length, wilds=wilds_plural(rules))
    else:
        why = ngettext(
            "Your cards cannot pay for {route}: it takes {count} {colour} card "
            "({wilds} count as any colour where the map allows).",
            "Your cards cannot pay for {route}: it takes {count} {colour} cards "
            "({wilds} count as any colour where the map allows).",
            route.length,
        ).format(
            route=route_label(route), count=route.length, colour=colour_name(route.color), wilds=wilds_plural(rules)
        )
    return f"{why} {claim_hint(rules)}"


def payment_prompt(route_label: str) -> str:
    return _("{route} can be paid in several colours: choose how.").format(route=route_label)


def souvenir_prompt() -> str:
    return _("Both ends hold a souvenir you do not have yet: choose one.")


def nothing_claimable_text(rules: Rules) -> str:
    return map_(
        rules.name,
        "No route can be claimed with your cards now: draw cards (or tickets) instead. `/ttr hand` shows your cards.",
    )


def claimable_text(count: int, rules: Rules | None = None) -> str:
    """How many routes the member may claim now (the menus show at most MENU_LIMIT of them), in the words of the
    rulebook of `rules`' map."""
    map_id = rules.name if rules is not None else ""
    text = nmap_(map_id, "You can claim {count} route now.", "You can claim {count} routes now.", count).format(
        count=count
    )
    if count > MENU_LIMIT:
        text += " " + map_(map_id, "More routes are open to you than fit here: `/ttr claim` lists them all.")
    return text
