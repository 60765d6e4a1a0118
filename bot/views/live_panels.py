"""One set of live game buttons per member and game: a private game panel superseded by a newer answer about
the same game loses its buttons.

A game panel is a private answer whose components are moves of a game (the
`Action`s of bot/views/ids.py: cards, the claim menus, a payment, a tunnel's
surcharge, tickets to keep, a souvenir...). Each is kept, per member and
game, with the interaction that can edit it: Discord lets an interaction's
token edit its messages for 15 minutes. When the member gets a newer private
answer about the same game in another message, the older panel's components
are taken off (its words stay), if its token is still good; otherwise it
keeps them, and a tap on them is answered as before (out of date, or acted
on at the game's current version where that is safe). Other private answers
with components (the pages of a paged answer, a moderator's confirmation)
are no game panels: they keep their buttons, and an answer about another
game (or about none) leaves a panel as it was. A failed edit changes nothing
else: the answer that superseded it is sent all the same.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

import discord

from bot.views.ids import Action
from bot.views.items import GameButton, GameSelect

log = logging.getLogger(__name__)

TOKEN_SECONDS = 14 * 60  # an interaction's token edits its messages for 15 minutes: a minute kept in hand


@dataclass(frozen=True)
class Panel:
    """A private game panel, and the interaction whose token can edit it."""

    interaction: discord.Interaction
    message_id: int
    at: datetime


# per client: (member, game) -> the member's live panel of that game
# kept on the client itself: a module-level map keyed by the client would keep it (and its store) alive, since the
# panels' interactions refer to it
_ATTRIBUTE = "_conductor_live_panels"


def _of(client: discord.Client) -> dict[tuple[int, int], Panel]:
    kept: dict[tuple[int, int], Panel] | None = getattr(client, _ATTRIBUTE, None)
    if kept is None:
        kept = {}
        setattr(client, _ATTRIBUTE, kept)
    return kept


_MOVES = frozenset(a.value for a in Action)


def panel_game(view: discord.ui.View | None) -> int | None:
    """The game whose moves the view's components are (None: no game panel, e.g. a pager or the lobby's)."""
    if view is None:
        return None
    for item in view.children:
        if isinstance(item, GameButton | GameSelect) and item.cid.action in _MOVES:
            return item.cid.game
    return None


async def superseded(
    interaction: discord.Interaction, message_id: int | None, view: discord.ui.View | None, game: int | None
) -> None:
    """The member got a private answer (`message_id`, None if unknown) with `view`, about `game` (None if about
    no game): their older panel of the answer's game, if it is another message, loses its components; this
    answer is kept as their panel of its game if it is a game panel."""
    shown = panel_game(view)
    game = game if shown is None else shown
    if game is None:
        return
    kept = _of(interaction.client)
    key = (interaction.user.id, game)
    old = kept.pop(key, None)
    if old is not None and (message_id is None or old.message_id != message_id):
        await _strip(old)
    if message_id is not None and shown is not None:
        kept[key] = Panel(interaction, message_id, discord.utils.utcnow())


async def _strip(panel: Panel) -> None:
    if (discord.utils.utcnow() - panel.at).total_seconds() > TOKEN_SECONDS:
        return  # the token can no longer edit it: it keeps its components, and answers as before
    try:
        await panel.interaction.followup.edit_message(panel.message_id, view=None)
    except (discord.HTTPException, discord.ClientException):
        log.info("could not take the components off panel %s of user %d", panel.message_id, panel.interaction.user.id)
