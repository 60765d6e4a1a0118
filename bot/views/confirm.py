"""The private confirmation panels: draw tickets, and a claim with its payment (and the other payments)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.present.cards import format_cards
from bot.present.confirm import cancel_label, confirm_label
from bot.present.decisions import pay_another_way_placeholder
from bot.views.ids import Action, ComponentId
from bot.views.items import GameButton, GameSelect
from bot.views.pay_codes import pay_code
from maps import Rules


def _cancel(game: int, version: int) -> GameButton:
    return GameButton.make(
        ComponentId(Action.CANCEL, game, version), cancel_label(), style=discord.ButtonStyle.secondary
    )


def tickets_confirm_view(game: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameButton.make(
            ComponentId(Action.TICKETSOK, game, version), confirm_label(), style=discord.ButtonStyle.success
        )
    )
    view.add_item(_cancel(game, version))
    return view


def claim_confirm_view(
    game: int,
    version: int,
    rules: Rules,
    route_id: int,
    pay: Mapping[str, int],
    payments: Sequence[Mapping[str, int]],
) -> discord.ui.View:
    """Confirm / Cancel for one payment; a menu of every payment to pick another (when there are others)."""
    view = discord.ui.View(timeout=None)
    chosen = pay_code(pay)
    if len(payments) > 1:
        options = [
            discord.SelectOption(label=format_cards(rules, p)[:100], value=pay_code(p), default=pay_code(p) == chosen)
            for p in payments[:25]
        ]
        view.add_item(
            GameSelect.make(
                ComponentId(Action.PAYPICK, game, version, (str(route_id),)), pay_another_way_placeholder(), options
            )
        )
    view.add_item(
        GameButton.make(
            ComponentId(Action.CLAIMOK, game, version, (str(route_id), chosen)),
            confirm_label(),
            style=discord.ButtonStyle.success,
        )
    )
    view.add_item(_cancel(game, version))
    return view
