"""`/ttr leaderboard` and `/ttr profile`: the server's ratings (bot/service/ratings.py).

Both answer privately, like the other looking commands (nothing in them is secret: the answer is
private only so that looking fills no channel); the leaderboard's pages turn for the member who asked.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.lobby import MAP_CHOICES
from bot.cogs.ttr import TtrCog
from bot.present.ratings import leaderboard_buttons, leaderboard_text, profile_text
from bot.table.front import Front
from bot.table.paging import Page, send_pages
from bot.views.replies import guarded, private


class RatingsCog(TtrCog):
    """The server's leaderboards and members' profiles."""

    def __init__(self, ttr: app_commands.Group, front: Front) -> None:
        super().__init__(ttr)
        self.ratings = front.service.ratings

    @app_commands.command(name="leaderboard", description="The server's ratings, best first (overall or of one map)")
    @app_commands.describe(
        map="Only this map's ratings (default: all maps)", page="The page to show first (1 is the top)"
    )
    @app_commands.choices(map=MAP_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction, map: str | None = None, page: int | None = None
    ) -> None:
        async def work() -> None:
            guild = interaction.guild_id
            assert guild is not None
            first = await self.ratings.leaderboard(guild, map, 1 if page is None else page)

            async def show(index: int) -> Page:
                board = first if index == first.page - 1 else await self.ratings.leaderboard(guild, map, index + 1)
                return leaderboard_text(board), None

            await send_pages(interaction, first.pages, first.page - 1, show, leaderboard_buttons())

        await guarded(interaction, work)

    @app_commands.command(name="profile", description="A member's rating and record in this server's rated games")
    @app_commands.describe(member="Whose profile (default: yours)")
    async def profile(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        async def work() -> None:
            guild = interaction.guild_id
            assert guild is not None
            who: discord.Member | discord.User = member if member is not None else interaction.user
            found = await self.ratings.profile(guild, who.id)
            await private(interaction, profile_text(found, who.display_name))

        await guarded(interaction, work)
