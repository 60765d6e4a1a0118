"""Member-chosen text (names, reasons, anything typed) made safe to show in a Discord message.

Escaped once, where bot/present words it: markdown is shown as typed, and no
mention in it (`@everyone`, `<@123>`, `<@&5>`) is a mention any more. The
images draw names as they are (they have no markdown), so they never get
escaped text.
"""

from __future__ import annotations

import discord

ZERO_WIDTH_SPACE = "\N{ZERO WIDTH SPACE}"


def shown(text: str) -> str:
    """`text` as typed, for a message: markdown escaped, every "@" kept from forming a mention."""
    return discord.utils.escape_markdown(text).replace("@", "@" + ZERO_WIDTH_SPACE)


def quoted(text: str) -> str:
    """Typed text echoed back in quotes (as Python writes a string), escaped."""
    return shown(repr(text))
