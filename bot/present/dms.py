"""Direct messages in words: "your turn" notes, the call to choose starting tickets, a seat given to a member."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.present.clock import timestamp
from bot.present.i18n import _
from bot.present.layout import clip
from bot.present.names import map_title_of
from bot.present.words import tickets_plural
from bot.service import GameInfo
from maps import load_board


def your_turn_dm(info: GameInfo, url: str, body: Sequence[str] = (), deadline: datetime | None = None) -> str:
    """It is the member's turn: a link to the stage message, what happened since (`body`), the deadline."""
    head = _("It is your turn in your {title} game #{game_id} in <#{channel_id}>: {url}").format(
        title=map_title_of(info.title), game_id=info.id, channel_id=info.channel_id, url=url
    )
    lines = [head, *body]
    if deadline is not None:
        lines.append(_("Deadline: {time} (reserve included).").format(time=timestamp(deadline)))
    return clip("\n".join(lines))


def choose_tickets_dm(info: GameInfo, url: str) -> str:
    """The game started: choose starting tickets (in the map's word for them)."""
    return _("Choose your starting {tickets} in your {title} game #{game_id} in <#{channel_id}>: {url}").format(
        tickets=tickets_plural(load_board(info.map).rules),
        title=map_title_of(info.title),
        game_id=info.id,
        channel_id=info.channel_id,
        url=url,
    )


def seat_given_dm(info: GameInfo, given: str) -> str:
    """A member got a seat (`given` says which), and where to play it."""
    return _(
        "{given} It is played in <#{channel_id}>: `/ttr hand` there shows your "
        "cards and tickets, and the turn message's buttons work for you now."
    ).format(given=given, channel_id=info.channel_id)
