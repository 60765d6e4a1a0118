"""The lobby in words: a game opened, members and autopilot players joining and leaving, the start."""

from __future__ import annotations

from bot.present.clock import clock_summary
from bot.present.escape import shown
from bot.present.i18n import _, ngettext, pgettext
from bot.present.mod_answers import autopilot_level_word
from bot.present.names import map_title_of
from bot.present.seats import member_name
from bot.present.verification import commitment_text
from bot.present.words import pieces_counted
from bot.service import GameInfo
from bot.service.events import Cancelled, Created, HostChanged, Joined, Left, Started
from maps import load_board


def created_text(created: Created) -> str:
    title = load_board(created.map).rules.title
    host = member_name(created.host_name, 1)
    if title[0] in "AEIO":  # an India, an Amsterdam; a USA
        text = _("{host} opens an {title} game for up to {count} players.")
    else:
        text = _("{host} opens a {title} game for up to {count} players.")
    text = text.format(host=host, title=map_title_of(title), count=created.max_players)
    if created.bots:
        taken = ngettext(
            "{count} seat is taken by the autopilot.", "{count} seats are taken by the autopilot.", created.bots
        ).format(count=created.bots)
        taken += " " + _("Autopilot level: {level}.").format(level=autopilot_level_word(created.level))
        text = f"{text} {taken}"
    return text


def joined_text(joined: Joined) -> str:
    if joined.autopilot:
        return _("{name} (the autopilot) joins ({seated}/{most}).").format(
            name=shown(joined.name), seated=joined.seated, most=joined.max_players
        )
    return _("{name} joins ({seated}/{most}).").format(
        name=member_name(joined.name, joined.seated), seated=joined.seated, most=joined.max_players
    )


def left_text(left: Left) -> str:
    if left.autopilot:
        return _("{name} (the autopilot) leaves.").format(name=shown(left.name))
    return _("{name} leaves.").format(name=member_name(left.name))


def host_changed_text(changed: HostChanged) -> str:
    return _("{name} is the host now.").format(name=member_name(changed.name))


def cancelled_text(cancelled: Cancelled) -> str:
    if cancelled.nobody_left:
        return _("Nobody is left: the game is cancelled.")
    if cancelled.moderator:
        return _("The game is cancelled by a moderator.")
    return _("The game is cancelled by the host.")


def started_text(info: GameInfo, started: Started) -> str:
    seating = ", ".join(shown(p) for p in started.players)
    text = _("The {title} game starts! Seat order: {seating}. Everyone chooses starting tickets now.").format(
        title=map_title_of(info.title), seating=seating
    )
    if not started.commitment:
        return text
    return text + "\n" + commitment_text(started.commitment)


def lobby_text(info: GameInfo) -> str:
    """A lobby as it stands: who is seated, the house rules, the clock, and how to join and start."""
    names = ", ".join(member_name(s.display_name, i + 1) for i, s in enumerate(info.seats))
    facts = {
        "title": map_title_of(info.title),
        "game_id": info.id,
        "seated": len(info.seats),
        "most": info.max_players,
        "names": names,
        "clock": clock_summary(info.clock),
    }
    if info.trains is None:
        return _(
            "**{title}** game #{game_id}: {seated}/{most} seated ({names}). "
            "Clock: {clock}. Join with the lobby message's **Join** button "
            "or `/ttr join`; the host starts with **Start** or `/ttr start`."
        ).format(**facts)
    return _(
        "**{title}** game #{game_id}: {seated}/{most} seated ({names}), {pieces} each (house rule). "
        "Clock: {clock}. Join with the lobby message's **Join** button "
        "or `/ttr join`; the host starts with **Start** or `/ttr start`."
    ).format(pieces=pieces_counted(load_board(info.map).rules, info.trains), **facts)


# ---- the lobby message's buttons (bot/views/lobby.py)


def join_label() -> str:
    return pgettext("button", "Join")


def leave_label() -> str:
    return pgettext("button", "Leave")


def start_label() -> str:
    return pgettext("button", "Start")
