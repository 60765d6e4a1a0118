"""Who hears what the service and the front end do, for an operator's metrics (bot/runtime/metrics.py).

`Observer` does nothing; the running bot passes one that counts when the operator turned metrics on. The
service calls it with plain values (a kind, an outcome, seconds): it knows nothing of who listens. Label
values are always from a short, fixed set (an action's name, a map, a level): never a member, channel or
server id.
"""

from __future__ import annotations

from contextvars import ContextVar

from bot.store.observer import StoreObserver

# when (time.perf_counter) the click or command being handled reached the bot; None outside one. The tasks an
# interaction starts inherit it, so the table shown after a move (posted or edited) measures from the click.
click_started: ContextVar[float | None] = ContextVar("click_started", default=None)

# the outcomes of an action (`Observer.acted`)
DONE, REFUSED, FAILED = "done", "refused", "failed"


class Observer(StoreObserver):
    """Does nothing; `bot.runtime.metrics.Metrics` overrides every method."""

    def acted(self, kind: str, outcome: str, seconds: float) -> None:
        """A member's command or click of `kind` was answered, `seconds` after it arrived; `outcome`: DONE,
        REFUSED (a refusal told the member why) or FAILED (an error: an apology was sent)."""

    def table_shown(self) -> None:
        """A game's table (its stage message) was shown anew: posted, or the live table edited in place; measured
        from `click_started`, when there is one."""

    def drawn(self, kind: str, seconds: float) -> None:
        """An image of `kind` (board, hand, ...) was drawn in `seconds` (called from the drawing thread)."""

    def decided(self, level: str, seconds: float) -> None:
        """The autopilot at `level` decided a move in `seconds`."""

    def dm_refused(self) -> None:
        """A member's direct messages were found closed to the bot."""

    def timers_due(self, count: int) -> None:
        """The scheduler found `count` timers due."""

    def timer_fired(self, kind: str, late_seconds: float, *, failed: bool) -> None:
        """A timer of `kind` was handled `late_seconds` after its deadline (or `failed`, to be tried again)."""


QUIET = Observer()

__all__ = ["DONE", "FAILED", "QUIET", "REFUSED", "Observer", "click_started"]
