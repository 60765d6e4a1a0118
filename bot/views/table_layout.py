"""The live table's message as a Discord layout (components v2): a container in the colour of the player to move
with the last move, whose turn it is and the clock, the board, the players' rows and the game's buttons.

A components-v2 message carries no content and no embeds, and stays one for
good (Discord sets the flag once): every edit of the table is a layout, and so
is the table without its buttons (`rebuilt`, for old tables: the action rows
left out, words and board kept). The words come from bot/present, the buttons
from bot/views/panels.py; nothing is worded here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.present.layout import clip, clip_head
from bot.views.ids import ComponentId
from bot.views.items import GameButton

TEXT_LIMIT = 4000  # all the text displays of a message together
HEAD_LIMIT = 1500  # the last moves (and notes) kept of a long recap: the newest
PLAYERS_LIMIT = 1500  # the players' rows (five seats take some 1000 characters)
TURN_ID = 1000  # the component id of the text of whose turn it is (with the clock's line), found again by it
_BUTTON = re.compile(GameButton.__discord_ui_compiled_template__.pattern)


@dataclass(frozen=True)
class TableTexts:
    """What the table says, each part worded already (bot/present): `turn` whose turn it is (with the clock's
    line), `last` what happened since the last stage (notes and the recap), `players` one row a player."""

    turn: str
    last: str
    players: str


@dataclass(frozen=True)
class Board:
    """The board image attached to the message (by its file name) and its alt text."""

    filename: str
    alt_text: str


def table_layout(
    texts: TableTexts, *, accent: int | None, board: Board | None, buttons: discord.ui.View | None
) -> discord.ui.LayoutView:
    """The table: a container (accent: the colour of the player to move) holding what happened since the last
    stage (the last move, notes), whose turn it is and the clock, the board, the players' rows, and the buttons of
    `buttons` in the same rows: the order of a stage message's words and image, the players' rows added."""
    parts: list[discord.ui.Item[Any]] = []
    turn, players = clip(texts.turn), clip(texts.players, PLAYERS_LIMIT)
    last = clip_head(texts.last, min(HEAD_LIMIT, TEXT_LIMIT - len(turn) - len(players)))
    if last:
        parts.append(discord.ui.TextDisplay(last))
    if turn:
        parts.append(discord.ui.TextDisplay(turn, id=TURN_ID))
    if board is not None:
        item = discord.MediaGalleryItem(f"attachment://{board.filename}", description=board.alt_text[:1024] or None)
        parts.append(discord.ui.MediaGallery(item))
    if players:
        parts.append(discord.ui.TextDisplay(players))
    rows = action_rows(buttons)
    if rows:
        parts.append(discord.ui.Separator())
        parts.extend(rows)
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.Container(*parts, accent_colour=accent))
    return layout


def final_layout(words: str, *, accent: int | None, board: Board | None) -> discord.ui.LayoutView:
    """The final message at the table, a layout too: a container (accent: the winner's colour) with the final
    scores (`words`) above the final board."""
    parts: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(clip(words))]
    if board is not None:
        item = discord.MediaGalleryItem(f"attachment://{board.filename}", description=board.alt_text[:1024] or None)
        parts.append(discord.ui.MediaGallery(item))
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.Container(*parts, accent_colour=accent))
    return layout


def action_rows(buttons: discord.ui.View | None) -> list[discord.ui.ActionRow[Any]]:
    """A view's components as the action rows it would be sent in (the same items, in the same rows)."""
    if buttons is None:
        return []
    items = {getattr(item, "custom_id", None): item for item in buttons.children}
    rows: list[discord.ui.ActionRow[Any]] = []
    for row in buttons.to_components():
        children = [items[c.get("custom_id")] for c in row["components"]]
        for child in children:
            buttons.remove_item(child)  # an item belongs to one view: it moves to the layout's row
        rows.append(discord.ui.ActionRow(*children))
    return rows


def is_layout(message: discord.Message) -> bool:
    """Is the message a components-v2 layout (no content; it stays one)?"""
    return message.flags.components_v2


def rebuilt(
    message: discord.Message, *, buttons: bool, turn: Callable[[str], str] | None = None
) -> discord.ui.LayoutView:
    """A layout message as it is, to edit it with: without its action rows unless `buttons`; the words of whose
    turn it is (the text display `TURN_ID`) passed through `turn`. Its images stay the message's attachments."""
    files = {a.url: a.filename for a in message.attachments}
    layout = discord.ui.LayoutView(timeout=None)
    for part in _items(message.components, files, buttons, turn or (lambda words: words)):
        layout.add_item(part)
    return layout


def _items(
    components: Sequence[discord.Component], files: dict[str, str], buttons: bool, turn: Callable[[str], str]
) -> list[discord.ui.Item[Any]]:
    out: list[discord.ui.Item[Any]] = []
    for component in components:
        if isinstance(component, discord.Container):
            colour = component.accent_colour
            inner = _items(component.children, files, buttons, turn)
            out.append(discord.ui.Container(*inner, accent_colour=colour, spoiler=component.spoiler))
        elif isinstance(component, discord.TextDisplay):
            if component.id == TURN_ID:
                out.append(discord.ui.TextDisplay(turn(component.content) or "\N{ZERO WIDTH SPACE}", id=TURN_ID))
            else:
                out.append(discord.ui.TextDisplay(component.content))
        elif isinstance(component, discord.MediaGalleryComponent):
            items = [
                discord.MediaGalleryItem(_media(i.media.url, files), description=i.description, spoiler=i.spoiler)
                for i in component.items
            ]
            out.append(discord.ui.MediaGallery(*items))
        elif isinstance(component, discord.SeparatorComponent):
            if buttons:  # the separator sets the buttons off: it goes with them
                out.append(discord.ui.Separator(visible=component.visible, spacing=component.spacing))
        elif isinstance(component, discord.ActionRow) and buttons:
            row = [_button(c) for c in component.children if isinstance(c, discord.Button)]
            if row:
                out.append(discord.ui.ActionRow(*row))
    return out


def _media(url: str, files: dict[str, str]) -> str:
    """An image of the message's own attachments is referred to by its file name (kept as it is on an edit)."""
    name = files.get(url)
    return url if name is None else f"attachment://{name}"


def _button(button: discord.Button) -> discord.ui.Item[Any]:
    match = _BUTTON.fullmatch(button.custom_id or "")
    if match is None:
        return discord.ui.Button(
            label=button.label, custom_id=button.custom_id, style=button.style, disabled=button.disabled
        )
    emoji = str(button.emoji) if button.emoji is not None else None
    return GameButton.make(
        ComponentId.from_match(match), button.label or "", style=button.style, emoji=emoji, disabled=button.disabled
    )
