"""The texts of looking at games: history pages."""

from __future__ import annotations

import re

from bot.present.paging import pages


def page_of(text: str) -> tuple[int, int]:
    match = re.search(r"page (\d+) of (\d+)\s*$", text)
    assert match, text
    return int(match.group(1)), int(match.group(2))


def test_pages_fit_a_message_and_keep_every_line() -> None:
    lines = [f"**Turn {n}:** " + "alice claims a long route. " * (n % 7 + 1) for n in range(300)]
    texts = pages(lines)
    assert len(texts) > 5 and all(len(t) <= 2000 for t in texts)
    assert [page_of(t) for t in texts] == [(n, len(texts)) for n in range(1, len(texts) + 1)]
    assert sum(t.count("**Turn ") for t in texts) == 300
    assert pages([]) == ["\n-# page 1 of 1"]
