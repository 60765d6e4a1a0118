"""The words of paged answers: the page count, the buttons, and the refusal to anyone else."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.i18n import N_, _
from bot.present.layout import MESSAGE_LIMIT, chunks

# the buttons' labels, translated where the buttons are made (bot/table/paging.py: `button_label`)
HISTORY_BUTTONS = (N_("Older"), N_("Newer"))
REPLAY_BUTTONS = (N_("Previous"), N_("Next"))


def button_label(label: str) -> str:
    """One of the labels above in the language spoken."""
    return _(label)


def not_your_pages_text() -> str:
    return _("These buttons belong to the member who asked; use the command yourself to turn pages.")


def page_footer(page: int, count: int) -> str:
    """ "page 3 of 7" (`page` counts from 0)."""
    return _("-# page {page} of {count}").format(page=page + 1, count=count)


def pages(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines packed into pages that fit a message with their footer, oldest first (at least one page)."""
    room = limit - len(page_footer(9999, 9999)) - 1
    packed = chunks(lines, room) or [""]
    return [f"{text}\n{page_footer(i, len(packed))}" for i, text in enumerate(packed)]


def replay_caption(game_id: int, turn: int, turns: int) -> str:
    """The text of a replay page: which turn's board it shows, of how many."""
    if turn == 0:
        text = _(
            "**Game #{game_id}:** the board before the first turn.\n-# turn {turn} of {turns}; turn 0 is the start"
        )
    else:
        text = _("**Game #{game_id}:** the board after turn {turn}.\n-# turn {turn} of {turns}; turn 0 is the start")
    return text.format(game_id=game_id, turn=turn, turns=turns)
