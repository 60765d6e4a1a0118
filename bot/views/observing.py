"""What an interaction is, for the operator's metrics: a bounded name, never an id (bot/service/observer.py).

A slash command is its full name (`ttr claim`); a game's button or menu is its action (`button:claim`);
anything else is `component` or `other`. The time a click took is measured from when the bot received it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.service.observer import QUIET, Observer
from bot.views.ids import BUTTON, SELECT, Action

ACTIONS = frozenset(a.value for a in Action)


def observer_of(client: discord.Client) -> Observer:
    """The bot's observer (`ConductorBot.observer`); nobody listens for another client."""
    observer = getattr(client, "observer", QUIET)
    return observer if isinstance(observer, Observer) else QUIET


def action_kind(interaction: discord.Interaction) -> str:
    """The kind of action an interaction asks for, from a short fixed set of names."""
    if interaction.command is not None:
        return interaction.command.qualified_name  # the bot's own commands: a fixed set
    if interaction.type is not discord.InteractionType.component:
        return "other"
    data: Any = interaction.data or {}
    prefix, _, rest = str(data.get("custom_id", "")).partition(":")
    action = rest.partition(":")[0]
    if prefix in (BUTTON, SELECT) and action in ACTIONS:
        return f"{'button' if prefix == BUTTON else 'menu'}:{action}"
    return "component"
