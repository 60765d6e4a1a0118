"""Fitting texts into Discord messages: the length limit, cutting, and packing lines into messages."""

from __future__ import annotations

from collections.abc import Sequence

MESSAGE_LIMIT = 2000


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A text cut to Discord's limit, marked where it was cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def clip_head(head: str, limit: int) -> str:
    """The end of a text that is too long (the newest lines matter most), marked where it was cut."""
    if len(head) <= limit:
        return head
    if limit <= 1:
        return ""
    return "…" + head[len(head) - limit + 1 :]


def chunks(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines packed into as few messages as fit."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = clip(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out
