"""The plan menu under a member's hand while it is not their turn: a step added to their plan, the autopilot's
suggestion, or the plan shown or cleared, answered in the same private panel with the menu again (the steps that
name a route or cards are `/ttr plan`'s, bot/cogs/plans.py)."""

from __future__ import annotations

import discord

from bot.present.misread import not_offered_text
from bot.present.plans import plan_cleared_text, plan_menu_hint, plan_text
from bot.service import GameInfo
from bot.service.plan_eval import ItemKind, PlanItem
from bot.service.plans import PlanService
from bot.views import panels
from bot.views.replies import Refusal, private
from maps import load_board


async def plan_chosen(plans: PlanService, interaction: discord.Interaction, info: GameInfo, value: str) -> None:
    """The member chose `value` in their plan menu: done, and answered privately with the plan as it is now."""
    user = interaction.user.id
    if value == "show":
        text = plan_text(await plans.show(info.id, user))
    elif value == "clear":
        text = plan_cleared_text(await plans.clear(info.id, user))
    elif value == "suggest":
        text = plan_text(await plans.suggest(info.id, user), suggested=True)
    elif value in (ItemKind.DECK.value, ItemKind.TICKETS.value):
        text = plan_text(await plans.add(info.id, user, PlanItem(ItemKind(value))))
    else:
        raise Refusal(not_offered_text())  # only a forged request sends another value
    rules = load_board(info.map).rules
    view = panels.plan_view(info.id, info.version, rules)
    await private(interaction, f"{text}\n{plan_menu_hint(rules)}", view=view)
