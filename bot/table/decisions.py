"""The private panel: what a player must decide now, in words, with the buttons and menus to decide it."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.present import texts
from bot.service import GameInfo, GameService
from bot.store import GameStatus
from bot.table.lookup import NOT_STARTED, waiting_text
from bot.views import panels
from maps import load_board

Panel = tuple[str, discord.ui.View | None]


def spot_panel(game_id: int, version: int, symbol: str, places: Sequence[str]) -> Panel:
    """Where a tourist stack goes."""
    text = f"Where does the {symbol.replace('_', ' ')} stack go?"
    return text, panels.spot_view(game_id, version, symbol, places)


async def panel(service: GameService, info: GameInfo, user: int) -> Panel:
    """What this member must decide now, with the components to decide it."""
    if info.status is GameStatus.LOBBY:
        return NOT_STARTED, None
    if not info.status.active:
        return f"Game #{info.id} is {info.status.value}.", None
    view = await service.private_view(info.id, user)
    if not view["your_move"]:
        return await waiting_text(service, info), None
    rules = load_board(info.map).rules
    must, version, options = view["must"], view["version"], view["options"]
    if must == "keep":
        setup = info.status is GameStatus.SETUP
        return (
            texts.offered_text(rules, view["offered"], view["keep_minimum"]),
            panels.ticket_view(info.id, version, rules, view["offered"], view["keep_minimum"], setup=setup),
        )
    if must == "draw":
        return "Draw your second card:", panels.draw_view(info.id, version, rules, options["card_draws"])
    if must == "tunnel":
        tunnel = (await service.public_view(info.id))["tunnel"]
        payments = options["tunnel"]
        text = f"The tunnel asks for {texts.plural(tunnel['surcharge'], 'more card')}."
        text += " Pay it or give the tunnel up." if payments else " You cannot pay it: give the tunnel up."
        return text, panels.tunnel_view(info.id, version, rules, payments)
    if must == "place":
        symbols, places = options["place"]["symbols"], options["place"]["places"]
        if len(symbols) == 1:
            return spot_panel(info.id, version, symbols[0], places)
        return "Which tourist stack do you place?", panels.symbol_view(info.id, version, symbols)
    face_up = (await service.public_view(info.id))["face_up"]
    if options["pass"]:
        return "Your turn, but there is nothing you can do: pass.", panels.turn_view(
            info.id, version, rules, face_up, can_pass=True
        )
    text = f"Your turn: {texts.must_text(rules, 'turn')}."
    return text, panels.turn_view(info.id, version, rules, face_up)
