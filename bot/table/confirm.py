"""Confirmations before a move: *Draw tickets*, and a route chosen from a menu (or `/ttr claim` without `pay`).

A member with confirmations on (bot/service/member_settings.py; the default)
is shown what the move would do and *Confirm* / *Cancel*; nothing is done
until they confirm, and they may make any other move meanwhile. The buttons
carry the game's version they were shown at: after the game moved on, a
confirmation is refused privately (the service's version check), nothing done.
A claim's confirmation names the route and the exact payment, with the other
payments the engine allows in a menu: the claim service asks it (bot/service/claims.py's
`Ask.CONFIRM`) and bot/table/claim_questions.py shows it. With confirmations off,
the controls act at once as before.
"""

from __future__ import annotations

import discord

from bot.present.confirm import cancelled_text, draw_tickets_question
from bot.service import GameInfo, Must
from bot.table.lookup import player_of
from bot.table.play import Play
from bot.views.confirm import tickets_confirm_view
from bot.views.replies import private
from maps import load_board


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


async def cancelled(interaction: discord.Interaction) -> None:
    await private(interaction, cancelled_text())
