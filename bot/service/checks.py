"""Checks of what callers hand the service: ids, names, seats, versions, flags and reasons."""

from __future__ import annotations

from bot.service.errors import IdKind, InvalidInput, StaleVersion, Why
from bot.service.models import GameInfo
from bot.service.names import clean_name

# Discord ids are positive and fit SQLite's signed 64-bit integers.
MAX_ID = (1 << 63) - 1

MAX_REASON = 500


def check_id(value: object, what: IdKind) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        raise InvalidInput(Why.BAD_ID, {"what": what, "value": value})
    return value


def check_name(raw: object) -> str:
    """A display name, cleaned; "" when nothing in it is visible (its seat plays as "player N")."""
    if not isinstance(raw, str):
        raise InvalidInput(Why.NO_DISPLAY_NAME)
    return clean_name(raw)


def seat_number(info: GameInfo, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(info.seats):
        raise InvalidInput(Why.BAD_SEAT, {"last": len(info.seats) - 1, "value": seat})
    return seat


def check_flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(Why.BAD_FLAG, {"name": name, "value": value})
    return value


def check_version(info: GameInfo, expected: int | None) -> None:
    if expected is None:
        return
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise InvalidInput(Why.BAD_VERSION, {"value": expected})
    if expected != info.version:
        raise StaleVersion(info.id, expected, info.version)


def clean_reason(reason: object) -> str:
    if not isinstance(reason, str):
        raise InvalidInput(Why.REASON_NOT_TEXT, {"value": reason})
    text = " ".join(reason.split())
    if len(text) > MAX_REASON:
        raise InvalidInput(Why.REASON_TOO_LONG, {"limit": MAX_REASON})
    return text
