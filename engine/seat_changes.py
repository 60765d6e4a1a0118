"""Seat changes as events of the hash chain: who held each seat, changed between which moves.

A record the bot exports lists its seat changes under `conductor.seat_changes`, oldest first; each entry has
`action` (`replace`: the seat went to another member; `autopilot`: the seat was handed to the autopilot, or
given back), `seat`, `moderator_user_id`, `after_moves` (how many of the record's moves had been made when the
change came: 0 before the first move) and that action's details (`from_user_id` and `to_user_id` for a
replacement, `user_id` and `on` for the autopilot). In the chain of version 3 each change is a link of its own,
placed after the `after_moves`-th move (after the moves, in the listed order, when several share a place), and
what is hashed is its **link form**:

    {"change": "replace", "from_user_id": A, "moderator_user_id": M, "seat": S, "to_user_id": B}
    {"change": "autopilot", "moderator_user_id": M, "on": true, "seat": S, "user_id": U}

A move never has a `change` key, so no link can be read both ways.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ACTIONS = ("replace", "autopilot")


@dataclass(frozen=True)
class SeatChange:
    """One seat change as the chain covers it: its place among the moves and its link form."""

    after_moves: int
    link: dict[str, Any]

    @property
    def seat(self) -> int:
        return int(self.link["seat"])


class ChangeError(ValueError):
    """A seat change the chain cannot hold; the message says which and why."""


def _member(value: Any) -> bool:
    return value is None or type(value) is int


def read_change(entry: Any, index: int, seats: int, moves: int) -> SeatChange:
    """The seat change of one `conductor.seat_changes` entry (`seats` seats, `moves` moves in the record)."""
    where = f"seat_changes[{index}]"
    if not isinstance(entry, Mapping):
        raise ChangeError(f"{where} is not an object")
    action, seat, after = entry.get("action"), entry.get("seat"), entry.get("after_moves")
    if action not in ACTIONS:
        raise ChangeError(f"{where}: the action must be replace or autopilot")
    if type(seat) is not int or not 0 <= seat < seats:
        raise ChangeError(f"{where}: 'seat' must be a seat number from 0 to {seats - 1}")
    if type(after) is not int or not 0 <= after <= moves:
        raise ChangeError(f"{where}: 'after_moves' must be a whole number from 0 to {moves}, the moves made before it")
    moderator = entry.get("moderator_user_id")
    if not _member(moderator):
        raise ChangeError(f"{where}: 'moderator_user_id' must be a member's id or null")
    link: dict[str, Any] = {"change": action, "seat": seat, "moderator_user_id": moderator}
    if action == "replace":
        before, after_user = entry.get("from_user_id"), entry.get("to_user_id")
        if not (_member(before) and _member(after_user)):
            raise ChangeError(f"{where}: 'from_user_id' and 'to_user_id' must be members' ids")
        link |= {"from_user_id": before, "to_user_id": after_user}
    else:
        user, on = entry.get("user_id"), entry.get("on")
        if not _member(user) or type(on) is not bool:
            raise ChangeError(f"{where}: 'user_id' must be a member's id and 'on' true or false")
        link |= {"user_id": user, "on": on}
    return SeatChange(after, link)


def read_changes(entries: Any, seats: int, moves: int) -> list[SeatChange]:
    """A record's seat changes, in the order listed, which must be the order of the moves they follow."""
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise ChangeError("seat_changes must be a list")
    changes = [read_change(entry, i, seats, moves) for i, entry in enumerate(entries)]
    for i, (one, two) in enumerate(itertools.pairwise(changes), start=1):
        if two.after_moves < one.after_moves:
            raise ChangeError(f"seat_changes[{i}] comes after move {two.after_moves}, before the change listed first")
    return changes


def events(moves: Sequence[Any], changes: Sequence[SeatChange]) -> list[Any]:
    """The chain's events in order: the moves (in their record form) with each seat change after its move."""
    out: list[Any] = []
    pending = list(changes)
    for count in range(len(moves) + 1):
        while pending and pending[0].after_moves <= count:
            out.append(pending.pop(0).link)
        if count < len(moves):
            out.append(moves[count])
    return out


def holders(start: Sequence[int | None], changes: Sequence[SeatChange]) -> list[int | None] | str:
    """Who holds each seat after the changes, from the members at the start; or what does not follow: a change
    that takes a seat from someone who did not hold it."""
    members = list(start)
    for i, change in enumerate(changes):
        link = change.link
        if link["change"] != "replace":
            if link["user_id"] != members[change.seat]:
                return (
                    f"seat_changes[{i}] hands over seat {change.seat + 1}, which member {link['user_id']} did not hold"
                )
            continue
        if link["from_user_id"] != members[change.seat]:
            holder = link["from_user_id"]
            return f"seat_changes[{i}] takes seat {change.seat + 1} from member {holder}, who did not hold it"
        members[change.seat] = link["to_user_id"]
    return members


def describe(change: SeatChange, players: Sequence[str]) -> str:
    """One seat change in words, for `verify`'s list of what it checked."""
    link = change.link
    seat = f"seat {change.seat + 1} ({players[change.seat]})"
    when = "before the first move" if change.after_moves == 0 else f"after move {change.after_moves}"
    if link["change"] == "replace":
        what = f"{seat} from member {link['from_user_id']} to member {link['to_user_id']}"
    elif link["on"]:
        what = f"{seat} handed to the autopilot by member {link['user_id']}"
    else:
        what = f"{seat} given back to member {link['user_id']} by the autopilot"
    by = link["moderator_user_id"]
    return f"{when}: {what}" + ("" if by is None else f", by moderator {by}")
