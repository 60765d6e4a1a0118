"""`/ttr review`: a finished game turn by turn (bot/service/review.py), privately, with its chart.

The answer is one private message that shows the progress while the review
is computed ("turn 34 of 117", edited at most every `PROGRESS_SECONDS`), then
becomes the summary with the chart of the chances of winning; the turn list
follows in as many private messages as it needs.
"""

from __future__ import annotations

import asyncio
import logging
import time

import discord
from discord import app_commands

from bot.cogs.common import is_moderator
from bot.cogs.ttr import TtrCog
from bot.present.i18n import current_language, speaking
from bot.present.review import chart_words, progress_text, review_refusal_text, review_summary, turn_pages
from bot.service.review import ReviewProgress, ReviewRefused, Reviews
from bot.table.front import Front
from bot.views.replies import Refusal, current_game, guarded, image_file
from render.review_chart import render_review_chart

log = logging.getLogger(__name__)

PROGRESS_SECONDS = 1.5  # at most one progress edit this often (Discord limits a message's edits)
NO_MENTIONS = discord.AllowedMentions.none()


class ReviewCog(TtrCog):
    """`/ttr review`."""

    def __init__(self, ttr: app_commands.Group, front: Front, reviews: Reviews) -> None:
        super().__init__(ttr)
        self.lookup = front.lookup
        self.settings = front.service.settings
        self.reviews = reviews

    @app_commands.command(
        name="review", description="A finished game turn by turn: the expert's moves and the chances of winning"
    )
    @app_commands.describe(game="The game number (default: your last finished game in this channel)")
    async def review(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> None:
            user = interaction.user.id
            try:
                if game is None:
                    channel = interaction.channel_id
                    assert channel is not None
                    game_id = await self.reviews.default_game(channel, user)
                    current_game.set(game_id)
                else:
                    game_id = (await self.lookup.server_game(interaction, game)).id
                moderator = await is_moderator(self.settings, interaction)
                language = current_language()
                shown = [0.0]

                async def progress(step: ReviewProgress) -> None:
                    now = time.monotonic()
                    if step.turn > 1 and now - shown[0] < PROGRESS_SECONDS:
                        return
                    shown[0] = now
                    with speaking(language):
                        text = progress_text(step, game_id)
                    try:
                        await interaction.edit_original_response(content=text, allowed_mentions=NO_MENTIONS)
                    except discord.HTTPException:  # a progress line lost is no reason to stop the review
                        log.info("game #%s: a review's progress edit failed", game_id, exc_info=True)

                if not self.reviews.cached(game_id):
                    await interaction.edit_original_response(
                        content=progress_text(None, game_id), allowed_mentions=NO_MENTIONS
                    )
                result = await self.reviews.review(game_id, user, moderator=moderator, progress=progress)
            except ReviewRefused as exc:
                raise Refusal(review_refusal_text(exc)) from None
            words = chart_words(result)
            image = await asyncio.to_thread(render_review_chart, result.chances, result.key_turns, words)
            await interaction.edit_original_response(
                content=review_summary(result)[:2000],
                attachments=[image_file(image, "review.png")],
                allowed_mentions=NO_MENTIONS,
            )
            for page in turn_pages(result):
                await interaction.followup.send(page, ephemeral=True, allowed_mentions=NO_MENTIONS)

        await guarded(interaction, work)

    @review.autocomplete("game")
    async def game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The games of this server the member played, and this channel's latest: newest first."""
        return await self.lookup.game_choices(interaction, current)
