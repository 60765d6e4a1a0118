"""`/ttr plan`: plan your next turn while it is not your turn; the bot plays it as soon as the turn comes.

One command: `step` adds a step (claim a route, take face-up cards, draw two from the deck, draw tickets) at the
end of the member's plan, or shows it, clears it, or sets the autopilot's suggestion. Every answer is private, and
a plan is never shown to anyone else (bot/service/plans.py).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.cogs.common import MAX_CHOICES, game_here, reader_language
from bot.cogs.ttr import TtrCog
from bot.present.i18n import speaking
from bot.present.plans import plan_cleared_text, plan_step_needs_text, plan_text
from bot.present.suggestions import route_label
from bot.service.plan_eval import DECK, ItemKind, PlanItem
from bot.table.front import Front
from bot.table.parsing import CardTextError, find_routes, parse_cards, parse_draw, route_matches
from bot.views.replies import Refusal, guarded, private
from engine.moves import payment_of
from maps import load_board

log = logging.getLogger(__name__)

STEP_CHOICES = [
    app_commands.Choice(name="Claim a route", value=ItemKind.CLAIM.value),
    app_commands.Choice(name="Take face-up cards", value=ItemKind.CARDS.value),
    app_commands.Choice(name="Draw two cards from the deck", value=ItemKind.DECK.value),
    app_commands.Choice(name="Draw tickets", value=ItemKind.TICKETS.value),
    app_commands.Choice(name="Show my plan", value="show"),
    app_commands.Choice(name="Clear my plan", value="clear"),
    app_commands.Choice(name="Suggest a plan (the autopilot)", value="suggest"),
]


class PlanCog(TtrCog):
    """Planning one's next turn."""

    def __init__(self, ttr: app_commands.Group, front: Front) -> None:
        super().__init__(ttr)
        self.plans = front.service.plans
        self.lookup = front.lookup
        self.reading = front.service.reading

    @app_commands.command(name="plan", description="Plan your next turn: played as soon as it comes (only you see it)")
    @app_commands.describe(
        step="A step to add to your plan (tried in order), or show, clear or suggest your plan",
        route="Claim: the route to claim if it is still free when your turn comes",
        pay='Claim: the cards to pay, like "4 red" (without it: as the claim menu would)',
        card="Face-up cards: the colour to take first, if one is showing",
        second="Face-up cards: the colour for the second card (if none is showing: from the deck)",
    )
    @app_commands.choices(step=STEP_CHOICES)
    async def plan(
        self,
        interaction: discord.Interaction,
        step: str,
        route: str | None = None,
        pay: str | None = None,
        card: str | None = None,
        second: str | None = None,
    ) -> None:
        async def work() -> None:
            info = await self.lookup.channel_game(interaction)
            user = interaction.user.id
            if step == "show":
                await private(interaction, plan_text(await self.plans.show(info.id, user)))
                return
            if step == "clear":
                await private(interaction, plan_cleared_text(await self.plans.clear(info.id, user)))
                return
            if step == "suggest":
                await private(interaction, plan_text(await self.plans.suggest(info.id, user), suggested=True))
                return
            item = _item(info.map, step, route, pay, card, second)
            await private(interaction, plan_text(await self.plans.add(info.id, user, item)))

        await guarded(interaction, work)

    @plan.autocomplete("route")
    async def plan_route_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Every route of the map the typed words match (a plan may name a route that cannot be claimed now)."""
        try:
            info = await game_here(self.reading, interaction)
            if info is None:
                return []
            board = load_board(info.map)
            with speaking(reader_language(interaction)):
                choices = [
                    app_commands.Choice(name=route_label(r)[:100], value=str(r.id))
                    for r in sorted(board.routes, key=lambda r: r.label())
                    if route_matches(board, r, current)
                ]
            return choices[:MAX_CHOICES]
        except Exception:
            log.debug("plan autocomplete gave up", exc_info=True)
            return []


def _item(
    map_name: str, step: str, route: str | None, pay: str | None, card: str | None, second: str | None
) -> PlanItem:
    """The step a member typed, read with the map's words; Refusal (with what to type) when it cannot be read."""
    board = load_board(map_name)
    rules = board.rules
    kind = ItemKind(step) if step in set(ItemKind) else None
    if kind is ItemKind.CLAIM:
        if not route:
            raise Refusal(plan_step_needs_text(rules, ItemKind.CLAIM))
        routes = find_routes(board, route)
        paid = None
        if pay and pay.strip():
            try:
                paid = payment_of(parse_cards(rules, pay))
            except CardTextError as exc:
                raise Refusal(str(exc)) from None
        return PlanItem(ItemKind.CLAIM, route=routes[0].id, pay=paid)
    if kind is ItemKind.CARDS:
        first = parse_draw(rules, card) if card else None
        if first is None or first == DECK:
            raise Refusal(plan_step_needs_text(rules, ItemKind.CARDS))
        then = parse_draw(rules, second) if second else None
        if second and then is None:
            raise Refusal(plan_step_needs_text(rules, ItemKind.CARDS))
        return PlanItem(ItemKind.CARDS, first=first, second=then)
    if kind is None:
        raise Refusal(plan_step_needs_text(rules, None))  # only a forged request sends another value
    return PlanItem(kind)
