"""The private panel: what a player must decide now, in words, with the buttons and menus to decide it."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.present.stage import must_text
from bot.present.status import offered_text
from bot.present.words import plural
from bot.service import GameInfo, GameService, GameStatus, Must
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
    if not view.your_move or view.options is None:
        return await waiting_text(service, info), None
    rules = load_board(info.map).rules
    must, version, options = view.must, view.version, view.options
    if must is Must.KEEP:
        setup = info.status is GameStatus.SETUP
        offered, least = view.offered or (), view.keep_minimum or 0
        return (
            offered_text(rules, offered, least),
            panels.ticket_view(info.id, version, rules, offered, least, setup=setup),
        )
    if must is Must.DRAW:
        return "Draw your second card:", panels.draw_view(info.id, version, rules, options.card_draws)
    table = (await service.public_view(info.id)).table
    assert table is not None  # the game is dealt
    if must is Must.TUNNEL:
        assert table.tunnel is not None
        payments = options.tunnel
        text = f"The tunnel asks for {plural(table.tunnel.surcharge, 'more card')}."
        text += " Pay it or give the tunnel up." if payments else " You cannot pay it: give the tunnel up."
        return text, panels.tunnel_view(info.id, version, rules, payments)
    if must is Must.PLACE and options.place is not None:
        symbols, places = options.place.symbols, options.place.places
        if len(symbols) == 1:
            return spot_panel(info.id, version, symbols[0], places)
        return "Which tourist stack do you place?", panels.symbol_view(info.id, version, symbols)
    face_up = list(table.face_up)
    if options.can_pass:
        return "Your turn, but there is nothing you can do: pass.", panels.turn_view(
            info.id, version, rules, face_up, can_pass=True
        )
    text = f"Your turn: {must_text(rules, Must.TURN)}."
    return text, panels.turn_view(info.id, version, rules, face_up)
