"""How texts name people: a seat by its player name, a member by a mention; the autopilot is never mentioned."""

from __future__ import annotations

from bot.service import GameInfo, SeatInfo


def mention(user_id: int | None) -> str:
    """A member's mention; autopilot players (negative ids) are never mentioned."""
    if user_id is None:
        return "someone"
    return f"<@{user_id}>" if user_id > 0 else "the autopilot"


def _seat(info: GameInfo, player: str | None) -> SeatInfo | None:
    return next((s for s in info.seats if s.player is not None and s.player == player), None)


def player_label(info: GameInfo, player: str | None) -> str:
    """How texts name a seat: its player name, "alice (autopilot)" while the autopilot plays a member's seat.

    Autopilot players are called "Autopilot k" already.
    """
    seat = _seat(info, player)
    if seat is None:
        return player or "someone"
    if seat.autopilot and not seat.bot:
        return f"{player} (autopilot)"
    return str(player)


def who(info: GameInfo, player: str | None) -> str:
    """A seat in a public message that pings its member: "<@123> (alice)"; the autopilot is never mentioned."""
    seat = _seat(info, player)
    if seat is None or seat.autopilot or seat.user_id <= 0:
        return player_label(info, player)
    return f"{mention(seat.user_id)} ({player})"


def seat_labels(info: GameInfo) -> dict[int, str]:
    """Seat number -> label, for the board's panel and the status."""
    return {s.seat: player_label(info, s.player) for s in info.seats if s.seat is not None}


def first_player(info: GameInfo) -> str:
    """The player in the first seat, who takes the first turn."""
    return next((s.player for s in info.seats if s.seat == 0 and s.player is not None), "")
