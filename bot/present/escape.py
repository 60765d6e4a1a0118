"""Member-chosen text (names, reasons, anything typed) made safe to show in a Discord message.

Escaped once, where bot/present words it: markdown is shown as typed, and no
mention in it (`@everyone`, `<@123>`, `<@&5>`) is a mention any more. The
images draw names as they are (they have no markdown), so they never get
escaped text.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import discord

ZERO_WIDTH_SPACE = "\N{ZERO WIDTH SPACE}"
_PLAIN: ContextVar[bool] = ContextVar("plain_text", default=False)


@contextmanager
def plain_text() -> Iterator[None]:
    """Words for a text file (which has no markdown and pings nobody): within, `shown` leaves text as typed."""
    token = _PLAIN.set(True)
    try:
        yield
    finally:
        _PLAIN.reset(token)


def shown(text: str) -> str:
    """`text` as typed, for a message: markdown escaped, every "@" kept from forming a mention."""
    if _PLAIN.get():
        return text
    return discord.utils.escape_markdown(text).replace("@", "@" + ZERO_WIDTH_SPACE)


# How much of a member's typed text an answer repeats.
ECHO_LIMIT = 40


def quoted(text: str) -> str:
    """Typed text echoed back: stripped, cut to ECHO_LIMIT characters, quoted as Python writes a string, escaped."""
    text = text.strip()
    cut = text if len(text) <= ECHO_LIMIT else text[: ECHO_LIMIT - 1] + "…"
    return shown(repr(cut))
