"""The private panel: what a player must decide now, in words, with the buttons and menus to decide it."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.present.decisions import (
    game_is_text,
    nothing_to_do_prompt,
    second_draw_prompt,
    spot_prompt,
    stack_prompt,
    tunnel_prompt,
    turn_prompt,
)
from bot.present.i18n import current_language
from bot.present.image_words import image_words
from bot.present.lookup import not_started_text
from bot.present.seats import seat_labels
from bot.present.status import offer_image_text, offered_text
from bot.service import GameInfo, GameStatus, Must
from bot.service.images import Images
from bot.service.reading import ReadingService
from bot.table.lookup import waiting_text
from bot.views import panels
from bot.views.replies import image_file
from maps import load_board

log = logging.getLogger(__name__)

Panel = tuple[str, discord.ui.View | None]


async def offer_image(
    images: Images, reading: ReadingService, info: GameInfo, user: int
) -> tuple[str, discord.File] | None:
    """While the member chooses tickets to keep (at the start, or drawn): the map with the offered ones marked
    (A, B, C: the private view's rings) and the line that says so, in the reader's language.

    None when nothing is offered to them now, or if the image could not be drawn (the choice works without it).
    """
    try:
        view = await reading.private_view(info.id, user)
        if not (view.your_move and view.must is Must.KEEP and view.offered):
            return None
        words = image_words(current_language())
        image = await images.hand_image(info.id, user, seat_labels(info), words=words)
    except Exception:
        log.warning("game #%d: the ticket offer's image for user %d failed", info.id, user, exc_info=True)
        return None
    line = offer_image_text(load_board(info.map).rules, len(view.offered))
    return line, image_file(image, "tickets.png")


def spot_panel(game_id: int, version: int, symbol: str, places: Sequence[str]) -> Panel:
    """Where a tourist stack goes."""
    return spot_prompt(symbol), panels.spot_view(game_id, version, symbol, places)


async def panel(reading: ReadingService, info: GameInfo, user: int) -> Panel:
    """What this member must decide now, with the components to decide it."""
    if info.status is GameStatus.LOBBY:
        return not_started_text(), None
    if not info.status.active:
        return game_is_text(info.id, info.status.value), None
    view = await reading.private_view(info.id, user)
    if not view.your_move or view.options is None:
        return await waiting_text(reading, info), None
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
        return second_draw_prompt(), panels.draw_view(info.id, version, rules, options.card_draws)
    table = (await reading.public_view(info.id)).table
    assert table is not None  # the game is dealt
    if must is Must.TUNNEL:
        assert table.tunnel is not None
        payments = options.tunnel
        text = tunnel_prompt(table.tunnel.surcharge, can_pay=bool(payments))
        return text, panels.tunnel_view(info.id, version, rules, payments)
    if must is Must.PLACE and options.place is not None:
        symbols, places = options.place.symbols, options.place.places
        if len(symbols) == 1:
            return spot_panel(info.id, version, symbols[0], places)
        return stack_prompt(), panels.symbol_view(info.id, version, symbols)
    face_up = list(table.face_up)
    if options.can_pass:
        return nothing_to_do_prompt(), panels.turn_view(info.id, version, rules, face_up, can_pass=True)
    return turn_prompt(rules), panels.turn_view(info.id, version, rules, face_up)
