"""The bot's process collects garbage less often and, once started, leaves what it holds out of collections
(bot/runtime/collector.py); any other process (tests, tools) keeps the interpreter's ways."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from bot.runtime import collector


class Node:
    other: Node | None = None


@pytest.fixture
def interpreter_gc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    thresholds = gc.get_threshold()
    monkeypatch.setattr(collector, "_tuned", False)
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_an_untuned_process_keeps_the_interpreters_collector(interpreter_gc: None) -> None:
    before = gc.get_threshold()
    collector.settle()
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before


def test_the_bots_process_collects_less_often_and_freezes_what_its_start_made(interpreter_gc: None) -> None:
    collector.tune()
    assert gc.get_threshold() == collector.THRESHOLDS and collector.THRESHOLDS[0] > 700
    kept = [[i] for i in range(1000)]  # made at the start, alive for good
    garbage = Node()
    garbage.other = Node()
    garbage.other.other = garbage  # a cycle the start left behind: collected before the freeze, not kept for ever
    gone = weakref.ref(garbage)
    del garbage
    collector.settle()
    assert gc.get_freeze_count() >= len(kept)
    assert gone() is None
