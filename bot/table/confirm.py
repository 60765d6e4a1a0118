"""Confirmations before a move: *Draw tickets*, and a route chosen from a menu (or `/ttr claim` without `pay`).

A member with confirmations on (bot/service/member_settings.py; the default)
is shown what the move would do and *Confirm* / *Cancel*; nothing is done
until they confirm, and they may make any other move meanwhile. The buttons
carry the game's version they were shown at: after the game moved on, a
confirmation is refused privately (the service's version check), nothing done.
A claim's confirmation names the route and the exact payment, with the other
payments the engine allows in a menu. With confirmations off, the controls act
at once as before.
"""

from __future__ import annotations

import discord

from bot.present.answers import stale_text
from bot.present.confirm import cancelled_text, claim_question, draw_tickets_question
from bot.present.misread import not_offered_text
from bot.service import GameInfo, Must
from bot.table import decisions
from bot.table.lookup import player_of
from bot.table.play import ClaimAsk, Play
from bot.views.confirm import claim_confirm_view, tickets_confirm_view
from bot.views.ids import pay_code
from bot.views.replies import Refusal, private
from maps import load_board


async def _stale(play: Play, interaction: discord.Interaction, info: GameInfo) -> None:
    """A confirmation asked from a control shown before the game moved on: refused, with what to decide now."""
    text, view = await decisions.panel(play.reading, await play.reading.game(info.id), interaction.user.id)
    await private(interaction, stale_text(text), view=view)


async def confirming(play: Play, user_id: int) -> bool:
    """Does this member want to confirm moves made by buttons and menus?"""
    return (await play.members.member_settings(user_id)).confirmations


async def ask_draw_tickets(play: Play, interaction: discord.Interaction, info: GameInfo, version: int) -> bool:
    """Ask before drawing tickets, if the member may draw them now and confirms moves; True if asked."""
    user = interaction.user.id
    player_of(info, user)
    view = await play.reading.private_view(info.id, user)
    if version != info.version or not view.your_move or view.must is not Must.TURN:
        return False  # the draw itself refuses (an older version, not the member's turn) or shows the choice
    if not await confirming(play, user):
        return False
    rules = load_board(info.map).rules
    await private(interaction, draw_tickets_question(rules), view=tickets_confirm_view(info.id, version))
    return True


async def ask_claim(
    play: Play, interaction: discord.Interaction, info: GameInfo, ask: ClaimAsk, version: int | None
) -> None:
    """Show the route and the payment (`ask.pay`, by default the service's) with the other payments, to confirm."""
    player_of(info, interaction.user.id)
    if version is not None and version != info.version:
        await _stale(play, interaction, info)
        return
    claim = await play.route_claim(interaction, info, ask, paid=False)
    option = claim.choice
    assert option is not None  # else refused
    pay = ask.pay
    if pay is None:
        pay = option.default_payment()
    elif pay_code(pay) not in {pay_code(p) for p in option.payments}:
        raise Refusal(not_offered_text())
    rules = load_board(info.map).rules
    others = len(option.payments) - 1
    view = claim_confirm_view(info.id, info.version, rules, claim.route.id, pay, option.payments)
    await private(interaction, claim_question(rules, claim.route, pay, others), view=view)


async def cancelled(interaction: discord.Interaction) -> None:
    await private(interaction, cancelled_text())
