"""Answering interactions: acknowledge at once, answer privately, and never let an exception reach a user.

Every command and component handler runs inside `guarded`: it defers the
interaction first (Discord wants an answer within three seconds, and the
work behind it touches the database and may draw images), then answers
refusals with their message and anything unexpected with a short apology,
logged with the game it concerned. The whole interaction speaks the
language of the member who asked (bot/table/languages.py): its answers are
theirs; public texts and DMs written on the way speak their readers'.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, Protocol, runtime_checkable

import discord

from bot.present.answers import apology_text
from bot.present.i18n import DEFAULT_LANGUAGE, language_of_locale, speaking
from bot.present.refusals import refusal_text
from bot.service import ServiceError
from bot.service.kinds import Language
from bot.service.observer import DONE, FAILED, REFUSED, click_started
from bot.views.answering import Answering
from bot.views.live_panels import superseded
from bot.views.observing import action_kind, observer_of
from render import RenderedImage

log = logging.getLogger(__name__)


# The game the current interaction is about, for the log line if something fails.
current_game: ContextVar[int | None] = ContextVar("current_game", default=None)


class Readers(Protocol):
    async def reader(self, interaction: discord.Interaction) -> Language:
        """The language of the private answers to this interaction."""
        ...


@runtime_checkable
class Speaks(Protocol):
    """A client that knows its members' languages (the bot: `ConductorBot.languages`)."""

    @property
    def languages(self) -> Readers | None: ...


async def reader_language(interaction: discord.Interaction) -> Language:
    """The language of the answers to an interaction: the member's (bot/table/languages.py), else their client's."""
    client = interaction.client
    languages = client.languages if isinstance(client, Speaks) else None
    if languages is not None:
        try:
            return await languages.reader(interaction)
        except Exception:
            log.warning("could not tell the language of user %s", interaction.user.id, exc_info=True)
    return language_of_locale(interaction.locale) or DEFAULT_LANGUAGE


class Refusal(Exception):
    """A request the bot turns down; the message tells the user why and what would work."""


# Interactions whose private panel was already edited by their answer: a further answer is a new message.
_answered_in_place: set[int] = set()


def on_private_panel(interaction: discord.Interaction) -> bool:
    """Is this a tap on a button or menu of a private (ephemeral) panel?"""
    message = interaction.message
    return interaction.type is discord.InteractionType.component and message is not None and message.flags.ephemeral


async def defer(interaction: discord.Interaction, *, in_place: bool = False) -> None:
    """Acknowledge at once: privately "thinking", or (`in_place`, for a tap on a private panel) as an update
    of that panel (type 6), which the answer then edits instead of stacking a new private message."""
    if interaction.response.is_done():
        return
    if in_place and on_private_panel(interaction):
        await interaction.response.defer()  # a component's deferred update: the panel itself is the answer
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


def _edits_panel(interaction: discord.Interaction) -> bool:
    return (
        interaction.response.type is discord.InteractionResponseType.deferred_message_update
        and interaction.id not in _answered_in_place
    )


async def private(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
    files: list[discord.File] | None = None,
    apart: bool = False,
) -> None:
    """An answer only the user who asked sees.

    A tap on a private panel deferred as its update (`defer(in_place=True)`)
    is answered by editing that panel: its words, components and files are
    replaced (no view: the panel keeps no components). A second answer to
    the same tap, or one `apart` (a refusal: the panel keeps its controls),
    is a new private message.
    """
    if not apart and _edits_panel(interaction):
        attachments = [*([file] if file is not None else []), *(files or [])]
        edited = await interaction.edit_original_response(
            content=(content or "")[:2000],
            view=view,
            attachments=attachments,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        _answered_in_place.add(interaction.id)
        await superseded(interaction, edited.id, view, current_game.get())
        return
    kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": discord.AllowedMentions.none()}
    if content is not None:
        kwargs["content"] = content[:2000]
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    if files:
        kwargs["files"] = files
    message_id: int | None = None
    if interaction.response.is_done():
        message_id = (await interaction.followup.send(wait=True, **kwargs)).id
    else:
        await interaction.response.send_message(**kwargs)
    if view is not None or not apart:  # a refusal apart leaves the panel tapped as it was
        await superseded(interaction, message_id, view, current_game.get())


async def try_private(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
    apart: bool = False,
) -> bool:
    """`private`, for an answer that must not fail what comes after it: False (and a log line) if Discord failed."""
    try:
        await private(interaction, content, view=view, file=file, apart=apart)
    except (discord.HTTPException, discord.InteractionResponded):
        log.warning("game #%s: could not answer user %s", current_game.get(), interaction.user.id, exc_info=True)
        return False
    return True


async def guarded(
    interaction: discord.Interaction, work: Callable[[], Awaitable[None]], *, in_place: bool = False
) -> None:
    """Defer, run `work`, and turn every failure into a private answer.

    `in_place`: a tap on a private panel is answered in that panel (see `private`). Everything runs in the
    language of the member who asked (`reader_language`).
    """
    answering = getattr(interaction.client, "answering", None)
    if isinstance(answering, Answering):  # work that can wait (the warm-up at start) waits while this runs
        with answering:
            await _guarded(interaction, work, in_place=in_place)
    else:
        await _guarded(interaction, work, in_place=in_place)


async def _guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]], *, in_place: bool) -> None:
    language = language_of_locale(interaction.locale) or DEFAULT_LANGUAGE
    started, outcome = time.perf_counter(), DONE
    click_started.set(started)  # the tasks started from here measure the stage message from this click
    try:
        await defer(interaction, in_place=in_place)
        language = await reader_language(interaction)
        with speaking(language):
            await work()
    except ServiceError as exc:
        outcome = REFUSED
        with speaking(language):
            await _answer(interaction, refusal_text(exc))
    except Refusal as exc:
        outcome = REFUSED
        await _answer(interaction, str(exc))
    except Exception:
        outcome = FAILED
        with speaking(language):
            await report_failure(interaction)
    finally:
        _answered_in_place.discard(interaction.id)
        if (observer := observer_of(interaction.client)).listening:
            observer.acted(action_kind(interaction), outcome, time.perf_counter() - started)


async def report_failure(interaction: discord.Interaction, error: BaseException | None = None) -> None:
    """Log the exception (by default the one being handled) with its game id, and apologise to the user."""
    name = interaction.command.qualified_name if interaction.command is not None else _custom_id(interaction)
    log.error(
        "game #%s: %s by user %s failed",
        current_game.get(),
        name,
        interaction.user.id,
        exc_info=error if error is not None else True,
    )
    await _answer(interaction, apology_text())


async def _answer(interaction: discord.Interaction, text: str) -> None:
    """A refusal or an apology: a private message of its own (a panel tapped keeps its controls)."""
    await try_private(interaction, text, apart=True)


def _custom_id(interaction: discord.Interaction) -> str:
    data: Any = interaction.data or {}
    return str(data.get("custom_id", "an interaction"))


def image_file(image: RenderedImage, filename: str) -> discord.File:
    """An image to attach to a message, with its alt text (what a screen reader says)."""
    return discord.File(io.BytesIO(image.png), filename=filename, description=image.alt_text[:1024])
