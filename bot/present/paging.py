"""The words of paged answers: the page count, the buttons, and the refusal to anyone else."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.layout import MESSAGE_LIMIT, chunks

HISTORY_BUTTONS = ("Older", "Newer")
REPLAY_BUTTONS = ("Previous", "Next")


def not_your_pages_text() -> str:
    return "These buttons belong to the member who asked; use the command yourself to turn pages."


def page_footer(page: int, count: int) -> str:
    """ "page 3 of 7" (`page` counts from 0)."""
    return f"-# page {page + 1} of {count}"


def pages(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines packed into pages that fit a message with their footer, oldest first (at least one page)."""
    room = limit - len(page_footer(9999, 9999)) - 1
    packed = chunks(lines, room) or [""]
    return [f"{text}\n{page_footer(i, len(packed))}" for i, text in enumerate(packed)]


def replay_caption(game_id: int, turn: int, turns: int) -> str:
    """The text of a replay page: which turn's board it shows, of how many."""
    when = "before the first turn" if turn == 0 else f"after turn {turn}"
    return f"**Game #{game_id}:** the board {when}.\n-# turn {turn} of {turns}; turn 0 is the start"
