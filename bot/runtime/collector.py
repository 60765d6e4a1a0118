"""Python's cyclic garbage collector, set for a long-running bot that keeps many games in memory.

With the interpreter's defaults (a young collection every 700 allocations, a full one every 100 young ones, when
the survivors have grown by a quarter), a bot busy with a thousand games spent over a quarter of its CPU in the
collector, most of it in full collections that walk every object of every cached game (150 ms each, all games
waiting meanwhile). Almost everything a move makes is freed by reference counting; the collector only ever finds
a few cycles per move. So the bot's process collects less often (`tune`), and once it has started (its games
read, the boards loaded, Discord's caches filled) moves what it holds so far out of the collector's way
(`settle`: `gc.freeze`, as the Python documentation advises for long-lived objects made at start). The
benchmarks (bench/pg.py, bench/service.py) run their processes with the same settings.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)

# young, middle and old generation thresholds (the interpreter's: 700, 10, 10)
THRESHOLDS = (10_000, 10, 10)

_tuned = False


def tune() -> None:
    """Collect less often, for the rest of this process (its start: before the bot runs)."""
    global _tuned
    gc.set_threshold(*THRESHOLDS)
    _tuned = True


def settle() -> None:
    """After the start: collect once, then leave everything alive now out of every later collection. Does nothing
    in a process that was not `tune`d (tests, tools), whose collector keeps the interpreter's ways."""
    if not _tuned:
        return
    found = gc.collect()
    gc.freeze()
    log.info("the start's %d objects are left out of garbage collection (%d freed)", gc.get_freeze_count(), found)
