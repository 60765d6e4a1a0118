"""Direct messages in words: "your turn" notes, the call to choose starting tickets, a seat given to a member."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.present.clock import timestamp
from bot.present.layout import clip
from bot.service import GameInfo


def _where(info: GameInfo) -> str:
    return f"your {info.title} game #{info.id} in <#{info.channel_id}>"


def your_turn_dm(info: GameInfo, url: str, body: Sequence[str] = (), deadline: datetime | None = None) -> str:
    """It is the member's turn: a link to the stage message, what happened since (`body`), the deadline."""
    lines = [f"It is your turn in {_where(info)}: {url}", *body]
    if deadline is not None:
        lines.append(f"Deadline: {timestamp(deadline)} (reserve included).")
    return clip("\n".join(lines))


def choose_tickets_dm(info: GameInfo, ticket: str, url: str) -> str:
    """The game started: choose starting tickets (`ticket` is the map's name for one)."""
    return f"Choose your starting {ticket}s in {_where(info)}: {url}"


def seat_given_dm(info: GameInfo, given: str) -> str:
    """A member got a seat (`given` says which), and where to play it."""
    return (
        f"{given} It is played in <#{info.channel_id}>: `/ttr hand` there shows your "
        "cards and tickets, and the turn message's buttons work for you now."
    )
