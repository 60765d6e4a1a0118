"""How texts name people: a seat by its player name (in a tournament's table, a seat handed to a substitute by the
substitute's name: `seat_name`), a member by a mention; the autopilot is never mentioned.

Names are chosen by members: texts get them escaped (`shown`), images as they are.
"""

from __future__ import annotations

from bot.present.escape import shown
from bot.present.i18n import _
from bot.service import GameInfo, SeatInfo
from bot.service.names import clean_name


def member_name(display_name: str, number: int | None = None) -> str:
    """A member's display name for a text (escaped); one with nothing visible is "player N" (its place in the lobby)."""
    if display_name:
        return shown(display_name)
    if number is not None:
        return _("player {number}").format(number=number)
    return _("a member without a visible name")


def mention(user_id: int | None) -> str:
    """A member's mention; autopilot players (negative ids) are never mentioned."""
    if user_id is None:
        return _("someone")
    return f"<@{user_id}>" if user_id > 0 else _("the autopilot")


def _seat(info: GameInfo, player: str | None) -> SeatInfo | None:
    return next((s for s in info.seats if s.player is not None and s.player == player), None)


def seat_name(info: GameInfo, player: str | None) -> str:
    """The name a seat goes by (as it is, not escaped): its player name; in a game whose seats go by their holder
    (a tournament's table), the name of the member a substitute's seat was handed to."""
    seat = _seat(info, player)
    name = player or ""
    if seat is None or not info.holder_names or seat.bot or not seat.display_name:
        return name
    if _plays_as(seat.display_name, name):
        return name
    return clean_name(seat.display_name) or name


def _plays_as(display_name: str, player: str) -> bool:
    """Is `player` the name the game made from `display_name` at its start (cleaned; " (2)" on a repeat)?"""
    cleaned = clean_name(display_name)
    if player == cleaned:
        return True
    base, _, tail = player.rpartition(" (")
    return tail.endswith(")") and tail[:-1].isdigit() and cleaned.casefold().startswith(base.casefold())


def player_label(info: GameInfo, player: str | None) -> str:
    """How texts name a seat: its player name (escaped), "alice (autopilot)" while the autopilot plays a member's seat.

    Autopilot players are called "Autopilot k" already.
    """
    return shown(_label(info, player))


def _label(info: GameInfo, player: str | None) -> str:
    seat = _seat(info, player)
    if seat is None:
        return player or _("someone")
    name = seat_name(info, player)
    if seat.autopilot and not seat.bot:
        return _("{player} (autopilot)").format(player=name)
    return name


def pinged(info: GameInfo, player: str | None) -> int | None:
    """The member `who` mentions for a seat: its member unless the autopilot plays it; None for nobody."""
    seat = _seat(info, player)
    if seat is None or seat.autopilot or seat.user_id <= 0:
        return None
    return seat.user_id


def who(info: GameInfo, player: str | None) -> str:
    """A seat in a public message that pings its member: "<@123> (alice)"; the autopilot is never mentioned."""
    user_id = pinged(info, player)
    if user_id is None:
        return player_label(info, player)
    return f"{mention(user_id)} ({shown(seat_name(info, player))})"


def seat_labels(info: GameInfo) -> dict[int, str]:
    """Seat number -> label as it is (not escaped), for the images; texts escape it (`shown`)."""
    return {s.seat: _label(info, s.player) for s in info.seats if s.seat is not None}


def first_player(info: GameInfo) -> str:
    """The player in the first seat, who takes the first turn."""
    return next((s.player for s in info.seats if s.seat == 0 and s.player is not None), "")
