"""Counting what one claim costs: the game locks it takes and the games it copies or loads, call by call.

`count_claims(service, monkeypatch)` wraps the service core's lock
(`ServiceCore._lock`, taken once by each `locked`/`act`), its one copy of a game
(`ServiceCore.working_copy`) and its load of a game from the store
(`bot.service.core.load`), and the claim entry point (`service.claims.claim`).
Only what a claim call does itself is counted (a context variable set for the
call, which the lock's task inherits), so the front's other reads around it
(the stage message, the panel) and other tasks do not count.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import pytest

import bot.service.core as service_core
import bot.service.loading as loading
from bot.service import GameService


@dataclass
class Tally:
    locks: int = 0
    copies: int = 0
    loads: int = 0

    def cost(self) -> tuple[int, int, int]:
        return self.locks, self.copies, self.loads


@dataclass
class Call:
    """One call of `claims.claim`: its answer (or the error it raised) and what it took."""

    outcome: object
    tally: Tally


@dataclass
class Calls:
    calls: list[Call] = field(default_factory=list)

    def take(self) -> list[Call]:
        """The calls since the last take."""
        taken, self.calls = self.calls, []
        return taken


_COUNTING: ContextVar[Tally | None] = ContextVar("claim_counting", default=None)


def _counted(function: Callable[..., Any], what: str) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        tally = _COUNTING.get()
        if tally is not None:
            setattr(tally, what, getattr(tally, what) + 1)
        return function(*args, **kwargs)

    return wrapper


def tallied() -> ContextVar[Tally | None]:
    """The context variable a test may set itself, to count what any other service call takes."""
    return _COUNTING


def count_claims(service: GameService, monkeypatch: pytest.MonkeyPatch) -> Calls:
    core = service.core
    monkeypatch.setattr(core, "_lock", _counted(core._lock, "locks"))
    monkeypatch.setattr(core, "working_copy", _counted(core.working_copy, "copies"))
    monkeypatch.setattr(service_core, "load", _counted(loading.load, "loads"))  # as core.py imports it
    calls = Calls()
    claim: Callable[..., Awaitable[object]] = service.claims.claim

    async def counted_claim(*args: Any, **kwargs: Any) -> object:
        tally = Tally()
        token = _COUNTING.set(tally)
        try:
            outcome = await claim(*args, **kwargs)
        except Exception as exc:
            calls.calls.append(Call(exc, tally))
            raise
        finally:
            _COUNTING.reset(token)
        calls.calls.append(Call(outcome, tally))
        return outcome

    monkeypatch.setattr(service.claims, "claim", counted_claim)
    return calls
