"""What every `/ttrmod` command shares: who may use it, the game in progress, how its result is told."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.cogs.common import game_here, is_moderator
from bot.cogs.ttr import TtrCog
from bot.present.events import public_text
from bot.present.i18n import speaking
from bot.present.mod_answers import (
    moderator_note,
    no_game_in_progress_text,
    not_a_moderator_text,
    servers_only_text,
)
from bot.service import ActionResult, GameInfo
from bot.table.delivery import NOTES
from bot.table.front import Front
from bot.views.replies import Refusal, current_game, guarded, private


def ttrmod_group() -> app_commands.Group:
    """`/ttrmod`, shown by Discord to members who may manage the server (each command checks again)."""
    return app_commands.Group(
        name="ttrmod",
        description="Game moderators: pause, extend, replace, autopilot, undo, end, reopen, log, export",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )


class ModeratorBase(TtrCog):
    """What the `/ttrmod` cogs share (the commands are theirs): the moderators' check and how results are told.
    Like the `/ttr` cogs (bot/cogs/ttr.py), each moves its commands into the one `/ttrmod` group."""

    def __init__(self, ttrmod: app_commands.Group, front: Front) -> None:
        super().__init__(ttrmod)
        self.audit = front.service.audit
        self.finality = front.service.finality
        self.lookup = front.lookup
        self.moderation = front.service.moderation
        self.reopening = front.service.reopen
        self.delivery = front.delivery
        self.stage = front.stage
        self.reading = front.service.reading
        self.settings = front.service.settings

    async def check(self, interaction: discord.Interaction) -> None:
        """Refuse (privately, saying who may) anyone who is not a moderator of this server."""
        if interaction.guild_id is None:
            raise Refusal(servers_only_text())
        if not await is_moderator(self.settings, interaction):
            raise Refusal(not_a_moderator_text())

    async def in_game(self, interaction: discord.Interaction, work: Callable[[GameInfo], Awaitable[None]]) -> None:
        """The moderator's check, then `work` on the game in progress in this channel; every failure answered."""

        async def run() -> None:
            await self.check(interaction)
            info = await game_here(self.reading, interaction)
            if info is None:
                raise Refusal(no_game_in_progress_text())
            current_game.set(info.id)
            await work(info)

        await guarded(interaction, run)

    async def done(
        self,
        interaction: discord.Interaction,
        result: ActionResult,
        reason: str,
        answer: str,
        *,
        public: bool = False,
        refresh: bool = False,
        clock: bool = False,
    ) -> None:
        """The result in the game's channel, the moderators' log (with the reason), the DMs it calls for; the answer.

        `public`: the channel is told the reason too; `refresh`: post the turn message again (its buttons
        changed); `clock`: update its clock's line.
        """
        shown = reason if public else None
        with speaking(await self.delivery.public(result.game)):  # told in the channel
            lead = [moderator_note(public_text(result.game, e), shown) for e in result.public if e.kind in NOTES]
        await self.delivery.deliver(result, lead=lead, refresh=refresh, interaction=interaction)
        if clock:
            await self.stage.refresh_clock(result.game.id)
        await private(interaction, answer)
