"""The tournament message's buttons: *Join*, *Leave*, *Check in* (persistent: they survive restarts).

Their custom ids are "ttrt:ACTION:TOURNAMENT" (ACTION `join`, `leave`, `checkin`): they act on the
tournament as it is when pressed (the service refuses what is no longer possible), so they carry no
version. discord.py rebuilds a pressed button from its id, also after a restart (`bot.add_dynamic_items`),
and hands the press to the tournament cog. A press counts against the member's command rate, as a
command does (bot/views/ratelimit.py).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Protocol, Self, cast

import discord

from bot.present.tournament_words import checkin_label, join_label, leave_label
from bot.views.ratelimit import admitted

PREFIX = "ttrt"
TEMPLATE = r"ttrt:(?P<action>join|leave|checkin):(?P<tournament>\d{1,19})"
COG = "TournamentCog"  # the cog that answers a press


class TourAction(StrEnum):
    """The ACTION part of the buttons' custom ids; stored by Discord, never renamed."""

    JOIN = "join"
    LEAVE = "leave"
    CHECKIN = "checkin"


class TourPresses(Protocol):
    async def on_press(self, interaction: discord.Interaction, action: TourAction, tournament_id: int) -> None: ...


def custom_id(action: TourAction, tournament_id: int) -> str:
    return f"{PREFIX}:{action.value}:{tournament_id}"


class TourButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(self, button: discord.ui.Button[Any], action: TourAction, tournament_id: int) -> None:
        super().__init__(button)
        self.action = action
        self.tournament_id = tournament_id

    @classmethod
    def make(cls, action: TourAction, tournament_id: int, label: str, style: discord.ButtonStyle) -> TourButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label[:80], custom_id=custom_id(action, tournament_id), style=style
        )
        return cls(button, action, tournament_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        assert isinstance(item, discord.ui.Button)
        return cls(item, TourAction(match.group("action")), int(match.group("tournament")))

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await admitted(interaction)  # a press counts against the member's command rate (bot/views/ratelimit.py)

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = getattr(interaction.client, "get_cog", lambda name: None)(COG)
        if handler is None:
            raise RuntimeError(f"no {COG} to answer a tournament button")
        await cast(TourPresses, handler).on_press(interaction, self.action, self.tournament_id)


def tournament_view(tournament_id: int, *, registration: bool, checkin: bool) -> discord.ui.View | None:
    """The buttons of a tournament's message: *Join* / *Leave* while registration is open, *Check in* (and
    *Leave*) during the check-in window; None when neither is open."""
    if not registration and not checkin:
        return None
    view = discord.ui.View(timeout=None)
    if registration:
        view.add_item(TourButton.make(TourAction.JOIN, tournament_id, join_label(), discord.ButtonStyle.success))
    if checkin:
        view.add_item(TourButton.make(TourAction.CHECKIN, tournament_id, checkin_label(), discord.ButtonStyle.primary))
    view.add_item(TourButton.make(TourAction.LEAVE, tournament_id, leave_label(), discord.ButtonStyle.secondary))
    return view
