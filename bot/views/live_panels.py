"""One set of live buttons per member: a private panel superseded by a newer answer loses its buttons.

Each private answer that carries game buttons or menus (a panel) is kept,
per member, with the interaction that can edit it: Discord lets an
interaction's token edit its messages for 15 minutes. When the member gets a
newer private answer in another message, the older panel's components are
taken off (its words stay), if its token is still good; otherwise it keeps
them, and a tap on them is answered as before (out of date, or acted on at
the game's current version where that is safe). A failed edit changes
nothing else: the answer that superseded it is sent all the same.
"""

from __future__ import annotations

import logging
import weakref
from dataclasses import dataclass
from datetime import datetime

import discord

log = logging.getLogger(__name__)

TOKEN_SECONDS = 14 * 60  # an interaction's token edits its messages for 15 minutes: a minute kept in hand


@dataclass(frozen=True)
class Panel:
    """A private answer with components, and the interaction whose token can edit it."""

    interaction: discord.Interaction
    message_id: int
    at: datetime


_panels: weakref.WeakKeyDictionary[discord.Client, dict[int, Panel]] = weakref.WeakKeyDictionary()


def _of(client: discord.Client) -> dict[int, Panel]:
    kept = _panels.get(client)
    if kept is None:
        kept = {}
        _panels[client] = kept
    return kept


def has_components(view: discord.ui.View | None) -> bool:
    return view is not None and len(view.children) > 0


async def superseded(interaction: discord.Interaction, message_id: int | None, view: discord.ui.View | None) -> None:
    """The member got a private answer (`message_id`, None if unknown) with `view`: the older panel, if it is
    another message, loses its components; this answer is kept as their panel if it has components."""
    kept = _of(interaction.client)
    user = interaction.user.id
    old = kept.pop(user, None)
    if old is not None and (message_id is None or old.message_id != message_id):
        await _strip(old)
    if has_components(view) and message_id is not None:
        kept[user] = Panel(interaction, message_id, discord.utils.utcnow())


async def _strip(panel: Panel) -> None:
    if (discord.utils.utcnow() - panel.at).total_seconds() > TOKEN_SECONDS:
        return  # the token can no longer edit it: it keeps its components, and answers as before
    try:
        await panel.interaction.followup.edit_message(panel.message_id, view=None)
    except (discord.HTTPException, discord.ClientException):
        log.info("could not take the components off panel %s of user %d", panel.message_id, panel.interaction.user.id)
