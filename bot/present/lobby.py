"""The lobby in words: a game opened, members and autopilot players joining and leaving, the start."""

from __future__ import annotations

from bot.present.clock import clock_summary
from bot.present.escape import shown
from bot.present.seats import member_name
from bot.present.words import plural
from bot.service import GameInfo
from bot.service.events import Cancelled, Created, HostChanged, Joined, Left, Started
from maps import load_board


def created_text(created: Created) -> str:
    title = load_board(created.map).rules.title
    article = "an" if title[0] in "AEIO" else "a"  # an India, an Amsterdam; a USA
    text = f"{member_name(created.host_name, 1)} opens {article} {title} game for up to {created.max_players} players."
    if created.bots == 1:
        text += " 1 seat is taken by the autopilot."
    elif created.bots:
        text += f" {created.bots} seats are taken by the autopilot."
    return text


def joined_text(joined: Joined) -> str:
    if joined.autopilot:
        return f"{shown(joined.name)} (the autopilot) joins ({joined.seated}/{joined.max_players})."
    return f"{member_name(joined.name, joined.seated)} joins ({joined.seated}/{joined.max_players})."


def left_text(left: Left) -> str:
    if left.autopilot:
        return f"{shown(left.name)} (the autopilot) leaves."
    return f"{member_name(left.name)} leaves."


def host_changed_text(changed: HostChanged) -> str:
    return f"{member_name(changed.name)} is the host now."


def cancelled_text(cancelled: Cancelled) -> str:
    if cancelled.nobody_left:
        return "Nobody is left: the game is cancelled."
    if cancelled.moderator:
        return "The game is cancelled by a moderator."
    return "The game is cancelled by the host."


def started_text(info: GameInfo, started: Started) -> str:
    seating = ", ".join(shown(p) for p in started.players)
    return f"The {info.title} game starts! Seat order: {seating}. Everyone chooses starting tickets now."


def lobby_text(info: GameInfo) -> str:
    """A lobby as it stands: who is seated, the house rules, the clock, and how to join and start."""
    names = ", ".join(member_name(s.display_name, i + 1) for i, s in enumerate(info.seats))
    rules = f", {plural(info.trains, 'trains')} each (house rule)" if info.trains is not None else ""
    return (
        f"**{info.title}** game #{info.id}: {len(info.seats)}/{info.max_players} seated ({names}){rules}. "
        f"Clock: {clock_summary(info.clock)}. Join with the lobby message's **Join** button "
        "or `/ttr join`; the host starts with **Start** or `/ttr start`."
    )
