"""What callers hand the store to write: new games, moves, timers, audit entries, and what goes with them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.store.errors import OpenGamesLimit
from bot.store.rows import ClockRow
from bot.store.status import GameStatus


@dataclass(frozen=True)
class NewGame:
    """A lobby to open, with its host in the first seat."""

    guild_id: int
    channel_id: int
    host_user_id: int
    host_name: str
    map: str
    options: dict[str, Any] = field(default_factory=dict)
    # the open-game limits, counted in the transaction that creates the game (None: no limit)
    server_limit: int | None = None
    member_limit: int | None = None


@dataclass(frozen=True)
class NewTimer:
    """A timer to set for a game, due at `deadline` (timezone-aware)."""

    kind: str
    deadline: datetime
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NewAudit:
    """An audit entry to keep: who acted (None: the bot itself), what, with which details, why, and when."""

    moderator_user_id: int | None
    action: str
    details: dict[str, Any]
    reason: str
    at: datetime


@dataclass(frozen=True)
class SeatUpdate:
    """A change to a started seat; None leaves a field as it is."""

    seat: int
    user_id: int | None = None
    display_name: str | None = None
    autopilot: bool | None = None


@dataclass(frozen=True)
class Writes:
    """What is written in the same transaction as a move or a change, so that none goes without the other.

    `clock` replaces the game's clock and `timers` all of its timers (None
    leaves them). `claim_timer` names a timer that must still be there; it is
    deleted, and the whole transaction is refused with TimerGone if it is
    already gone: so a timer's effect happens once. `plans_cleared`: the seats whose planned turn is removed
    (`ALL_PLANS`: every seat's).
    """

    clock: ClockRow | None = None
    timers: Sequence[NewTimer] | None = None
    claim_timer: int | None = None
    audit: Sequence[NewAudit] = ()
    seats: Sequence[SeatUpdate] = ()
    plans_cleared: Sequence[int] = ()


ALL_PLANS = (-1,)  # `Writes.plans_cleared`: every seat's plan


@dataclass(frozen=True)
class NewPlan:
    """A player's planned turn to keep (replacing theirs), if the game is still at `expected_version`."""

    seat: int
    user_id: int
    items: str  # JSON, bot/service/plan_eval.py
    at: datetime


@dataclass(frozen=True)
class Undo:
    """Take the live move log back to its first `keep` moves; the moves taken off are kept under the audit entry."""

    keep: int
    snapshot: str  # of the game after those `keep` moves


@dataclass(frozen=True)
class GameChange:
    """A change to a game that is not a move (moderation, timers, the clock); see `GameStore.apply_change`."""

    writes: Writes = field(default_factory=Writes)
    status: GameStatus | None = None
    undo: Undo | None = None  # needs one audit entry in `writes`
    bump: bool = True  # raise the version (stale buttons die); False for bookkeeping players need not see


@dataclass(frozen=True)
class StartedSeat:
    """Where a lobby member sits once the game starts, and their name in the game."""

    user_id: int
    seat: int
    player: str


@dataclass(frozen=True)
class GameStart:
    """What starting a game records: the seed, the decks as dealt, the seat order and the first snapshot."""

    seed: str
    cards: Sequence[str]
    tickets: Sequence[int]
    seats: Sequence[StartedSeat]  # every seat of the lobby, in seat order
    status: GameStatus
    snapshot: str  # of the game as dealt, before any move
    writes: Writes | None = None  # written in the same transaction


@dataclass(frozen=True)
class NewMove:
    """One move to append to the log, with the state it leads to."""

    index: int  # must be the number of moves logged so far
    move: dict[str, Any]
    user_id: int | None
    status: GameStatus  # the game's status after the move
    snapshot: str  # of the game after the move
    actor: str = "player"  # see MoveRow.actor
    at: datetime | None = None  # when it was made; the store's clock if None
    writes: Writes | None = None  # written in the same transaction
    # refused with ClockChanged unless the game's clock in the store is this one (the caller's came from memory)
    expected_clock: ClockRow | None = None


def check_open_games(new: NewGame, open_games: list[tuple[int, int]]) -> None:
    """OpenGamesLimit if `new` would pass a limit, given the server's open games as (id, host) pairs."""
    if new.server_limit is not None and len(open_games) >= new.server_limit:
        raise OpenGamesLimit(False, new.server_limit, ())
    hosted = tuple(sorted(game_id for game_id, host in open_games if host == new.host_user_id))
    if new.member_limit is not None and len(hosted) >= new.member_limit:
        raise OpenGamesLimit(True, new.member_limit, hosted)
