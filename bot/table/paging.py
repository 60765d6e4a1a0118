"""Private answers one member turns page by page: the history (Older / Newer), the replay (Previous / Next).

The buttons live with the answer (a view kept in memory for a while, not a
persistent one: the answer is private and short-lived); only the member who
asked can press them, and each press edits the answer in place; a press counts against the member's
command rate (bot/views/ratelimit.py), as a command does.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.present.i18n import current_language, speaking
from bot.present.paging import button_label, not_your_pages_text
from bot.views.ratelimit import admitted
from bot.views.replies import private, reader_language, report_failure

log = logging.getLogger(__name__)

PAGE_TIMEOUT = 14 * 60  # seconds: an interaction's answer can be edited for 15 minutes
Page = tuple[str, discord.File | None]  # the text of a page, and its image if it has one
BACK = "\N{BLACK LEFT-POINTING TRIANGLE}"
FORWARD = "\N{BLACK RIGHT-POINTING TRIANGLE}"
Show = Callable[[int], Awaitable[Page]]


class Pager(discord.ui.View):
    """Back / forward buttons over `count` pages (0 is the oldest) for the member `owner` alone."""

    def __init__(self, owner: int, count: int, page: int, show: Show, labels: tuple[str, str]) -> None:
        super().__init__(timeout=PAGE_TIMEOUT)
        self.owner = owner
        self.count = count
        self.page = page
        self.show = show
        self.back: discord.ui.Button[Pager] = discord.ui.Button(label=button_label(labels[0]), emoji=BACK)
        self.forward: discord.ui.Button[Pager] = discord.ui.Button(label=button_label(labels[1]), emoji=FORWARD)
        self.back.callback = self._back  # type: ignore[method-assign]
        self.forward.callback = self._forward  # type: ignore[method-assign]
        self.add_item(self.back)
        self.add_item(self.forward)
        self.asked: discord.Interaction | None = None
        self.language = current_language()  # the pages are written in the owner's language
        self._sync()

    def _sync(self) -> None:
        self.back.disabled = self.page <= 0
        self.forward.disabled = self.page >= self.count - 1

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id == self.owner:
            return await admitted(interaction)  # a page turned counts as a command (bot/views/ratelimit.py)
        with speaking(await reader_language(interaction)):
            await private(interaction, not_your_pages_text())
        return False

    async def _back(self, interaction: discord.Interaction) -> None:
        await self._turn(interaction, -1)

    async def _forward(self, interaction: discord.Interaction) -> None:
        await self._turn(interaction, 1)

    async def _turn(self, interaction: discord.Interaction, step: int) -> None:
        with speaking(self.language):
            await self._turned(interaction, step)

    async def _turned(self, interaction: discord.Interaction, step: int) -> None:
        try:
            self.page = max(0, min(self.count - 1, self.page + step))
            self._sync()
            content, file = await self.show(self.page)
            kwargs: dict[str, Any] = {"content": content, "view": self, "attachments": [] if file is None else [file]}
            kwargs["allowed_mentions"] = discord.AllowedMentions.none()
            await interaction.response.edit_message(**kwargs)
        except Exception as exc:
            await report_failure(interaction, exc)

    async def on_timeout(self) -> None:
        """The buttons are greyed out when they stop working."""
        if self.asked is None:
            return
        self.back.disabled = self.forward.disabled = True
        try:
            await self.asked.edit_original_response(view=self)
        except discord.HTTPException:
            log.debug("pages: could not grey out the buttons", exc_info=True)


async def send_pages(
    interaction: discord.Interaction, count: int, page: int, show: Show, labels: tuple[str, str]
) -> None:
    """Answer privately with page `page` of `count` and the buttons to turn them."""
    pager = Pager(interaction.user.id, count, page, show, labels)
    pager.asked = interaction
    content, file = await show(page)
    await private(interaction, content, file=file, view=pager if count > 1 else None)
