"""What a stage message says, whom it pings and which buttons it carries (bot/table/stage.py posts it, or edits
the live table to it: bot/table/live_table.py)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import discord

from bot.present.decisions import go_on_label
from bot.present.recap import recap_lines
from bot.present.seats import pinged
from bot.present.stage import (
    final_content,
    place_content,
    place_text,
    setup_content,
    start_text,
    turn_content,
    turn_text,
)
from bot.present.status import player_rows
from bot.service import Must
from bot.service.stages import StageView
from bot.views import panels
from bot.views.ids import Action, ComponentId
from bot.views.items import GameButton
from bot.views.table_layout import Board, TableTexts, final_layout, table_layout
from maps import load_board
from render.palette import player_style


def stage_content(view: StageView, lead: Sequence[str], shown: Collection[str], clock: str) -> str:
    """The words of a stage message: `lead` (notes), what happened since the stages `shown` (the recap), the stage."""
    info, table = view.info, view.table
    head = "\n".join([*lead, *recap_lines(info, view.history, shown)])
    if view.key == "setup":
        return setup_content(info, table, start_text(info, table, view.commitment), head, clock)
    if view.key == "final":
        assert table.scores is not None
        return final_content(info, head, table.scores, early=view.early, stalemate=table.stalemate)
    if view.key.startswith("place:"):
        return place_content(info, table, head, clock)
    return turn_content(info, table, head, clock)


def table_view(
    view: StageView, lead: Sequence[str], shown: Collection[str], clock: str, filename: str
) -> discord.ui.LayoutView:
    """The live table showing a placement or a turn (bot/table/live_table.py): a layout in the colour of the
    player to move (their trains'), with whose turn it is and the clock, the board (`filename`, attached), the
    last move, the players' rows and the stage's buttons."""
    info, table = view.info, view.table
    last = "\n".join([*lead, *recap_lines(info, view.history, shown)])
    turn = place_text(info, table, clock) if view.key.startswith("place:") else turn_text(info, table, clock)
    texts = TableTexts(turn=turn, last=last, players=player_rows(info, table))
    board = None if view.image is None else Board(filename, view.image.alt_text)
    return table_layout(texts, accent=accent(view), board=board, buttons=stage_buttons(view))


def final_view(view: StageView, content: str, filename: str) -> discord.ui.LayoutView:
    """The final message at the table: a layout in the winner's colour with the final scores (`content`) and the
    final board (`filename`, attached)."""
    board = None if view.image is None else Board(filename, view.image.alt_text)
    scores = view.table.scores
    winner = scores.winners[0] if scores is not None and scores.winners else None
    return final_layout(content, accent=accent(view, winner), board=board)


def accent(view: StageView, player: str | None = None) -> int | None:
    """The colour of a player (by default the player to move), as their trains are drawn (render/palette.py);
    None if nobody is meant."""
    to_move = view.table.to_move
    player = player if player is not None else to_move.player if to_move is not None else None
    seat = next((p.seat for p in view.table.players if p.player == player), None)
    if seat is None:
        return None
    red, green, blue = player_style(seat).rgb
    return (red << 16) | (green << 8) | blue


def stage_mentions(view: StageView) -> discord.AllowedMentions:
    """Whom a stage message pings: exactly the members who must act (the mentions its words hold), nobody else."""
    info, table = view.info, view.table
    if view.key == "setup":
        players = [w.player for w in table.waiting_for]
    elif view.key == "final" or table.to_move is None:
        players = []
    else:
        players = [table.to_move.player]
    ids = sorted({u for u in (pinged(info, p) for p in players) if u is not None})
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in ids])


def stage_buttons(view: StageView) -> discord.ui.View | None:
    """The stage message's buttons, of the game's version at this stage (the final message has none)."""
    info = view.info
    rules = load_board(info.map).rules
    if view.key == "setup":
        return panels.setup_view(info.id, info.version, rules)
    if view.key.startswith("place:"):
        return panels.place_view(info.id, info.version)
    if view.key.startswith("turn:"):
        buttons = panels.turn_view(info.id, info.version, rules, list(view.table.face_up), can_pass=view.stuck)
        to_move = view.table.to_move
        if to_move is not None and to_move.must is Must.TUNNEL:  # posted again while a tunnel waits for its payment
            cid = ComponentId(Action.SETUP, info.id, info.version)  # SETUP shows what the player must decide now
            go_on = GameButton.make(cid, go_on_label(), style=discord.ButtonStyle.primary, row=2)
            buttons.add_item(go_on)
        return buttons
    return None
