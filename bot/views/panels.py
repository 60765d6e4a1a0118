"""The views the bot sends: turn buttons and the private panels for each decision.

Each function builds a `discord.ui.View` of persistent components from what
the service says; none of them decides anything about the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.present.bonus_words import souvenir_choice
from bot.present.cards import CARD_EMOJI, format_cards
from bot.present.confirm import draw_tickets_label
from bot.present.decisions import (
    choose_payment_placeholder,
    choose_route_placeholder,
    choose_souvenir_placeholder,
    choose_tickets_label,
    claim_label,
    draw_deck_label,
    give_up_label,
    hand_label,
    keep_tickets_placeholder,
    pass_label,
    pay_more_label,
    place_stack_label,
    route_example,
    routes_placeholder,
    spot_prompt,
    take_card_label,
    which_stack_placeholder,
)
from bot.present.names import ticket_label
from bot.present.plans import plan_menu_options, plan_menu_placeholder
from bot.present.suggestions import route_label
from bot.present.words import card_name
from bot.service.choices import RouteChoice
from bot.service.scores import TicketLabel
from bot.views.ids import Action, ComponentId
from bot.views.items import GameButton, GameSelect
from bot.views.pay_codes import pay_code
from maps import Rules
from maps.names import symbol_name

MAX_ROUTE_MENUS = 4  # 4 x 25 routes; the fifth row is left for nothing else, /ttr claim covers the rest


def _view() -> discord.ui.View:
    return discord.ui.View(timeout=None)


def hand_button(game: int, version: int, row: int | None = None) -> GameButton:
    return GameButton.make(
        ComponentId(Action.HAND, game, version), hand_label(), emoji="\N{FLOWER PLAYING CARDS}", row=row
    )


def turn_view(
    game: int, version: int, rules: Rules, face_up: Sequence[str | None], *, can_pass: bool = False
) -> discord.ui.View:
    """The turn message's buttons: the five face-up cards, the deck, claim, tickets, my hand; pass if that is all."""
    view = _view()
    if can_pass:
        view.add_item(GameButton.make(ComponentId(Action.PASS, game, version), pass_label(), row=2))
    for slot, card in enumerate(face_up):
        if card is None:
            view.add_item(
                GameButton.make(ComponentId(Action.DRAW, game, version, ("none", str(slot))), "-", disabled=True, row=0)
            )
            continue
        view.add_item(
            GameButton.make(
                ComponentId(Action.DRAW, game, version, (card, str(slot))),
                card_name(rules, card).capitalize(),
                emoji=CARD_EMOJI.get(card),
                row=0,
            )
        )
    view.add_item(
        GameButton.make(
            ComponentId(Action.DRAW, game, version, ("deck", "d")),
            draw_deck_label(),
            style=discord.ButtonStyle.primary,
            row=1,
        )
    )
    view.add_item(
        GameButton.make(
            ComponentId(Action.CLAIM, game, version), claim_label(rules), style=discord.ButtonStyle.success, row=1
        )
    )
    view.add_item(GameButton.make(ComponentId(Action.TICKETS, game, version), draw_tickets_label(rules), row=1))
    view.add_item(hand_button(game, version, row=1))
    return view


def plan_view(game: int, version: int, rules: Rules) -> discord.ui.View:
    """The plan menu under a member's hand while it is not their turn (bot/table/plan_panel.py)."""
    view = _view()
    options = [discord.SelectOption(label=label[:100], value=value) for value, label in plan_menu_options(rules)]
    view.add_item(GameSelect.make(ComponentId(Action.PLAN, game, version), plan_menu_placeholder(), options))
    return view


def draw_view(game: int, version: int, rules: Rules, sources: Sequence[str]) -> discord.ui.View:
    """A private panel with the card draws open now (the second card of a turn)."""
    view = _view()
    for i, source in enumerate(sources[:10]):
        if source == "deck":
            button = GameButton.make(
                ComponentId(Action.DRAW, game, version, ("deck", f"p{i}")),
                draw_deck_label(),
                style=discord.ButtonStyle.primary,
            )
        else:
            button = GameButton.make(
                ComponentId(Action.DRAW, game, version, (source, f"p{i}")),
                take_card_label(rules, source),
                emoji=CARD_EMOJI.get(source),
            )
        view.add_item(button)
    return view


def ticket_view(
    game: int, version: int, rules: Rules, offered: Sequence[TicketLabel], least: int, *, setup: bool
) -> discord.ui.View:
    # a country ticket's "to" in the language spoken ("Bern till France 5, ..."), as the answers write it
    options = [discord.SelectOption(label=ticket_label(rules, t.id)[:100], value=str(t.id)) for t in offered]
    view = _view()
    view.add_item(
        GameSelect.make(
            ComponentId(Action.SETUPKEEP if setup else Action.KEEP, game, version),
            keep_tickets_placeholder(rules, least),
            options,
            min_values=max(least, 1),
            max_values=len(options),
        )
    )
    return view


def tunnel_view(game: int, version: int, rules: Rules, payments: Sequence[Mapping[str, int]]) -> discord.ui.View:
    view = _view()
    for pay in payments[:4]:
        view.add_item(
            GameButton.make(
                ComponentId(Action.TUNNEL, game, version, (pay_code(pay),)),
                pay_more_label(rules, pay),
                style=discord.ButtonStyle.success,
            )
        )
    view.add_item(
        GameButton.make(
            ComponentId(Action.TUNNEL, game, version, ("giveup",)), give_up_label(), style=discord.ButtonStyle.danger
        )
    )
    return view


def route_view(game: int, version: int, rules: Rules, options: Sequence[RouteChoice]) -> discord.ui.View:
    view = _view()
    ordered = sorted(options, key=lambda o: o.route.label())
    for part in range(min(MAX_ROUTE_MENUS, (len(ordered) + 24) // 25)):
        chunk = ordered[part * 25 : (part + 1) * 25]
        select_options = [
            discord.SelectOption(
                label=route_label(o.route)[:100],
                value=str(o.route.id),
                description=route_example(rules, o.payments[0])[:100],
            )
            for o in chunk
        ]
        first, last = chunk[0].route, chunk[-1].route
        view.add_item(
            GameSelect.make(
                ComponentId(Action.ROUTE, game, version, (str(part),)),
                routes_placeholder(rules, f"{first.a} - {first.b}", f"{last.a} - {last.b}")
                if len(ordered) > 25
                else choose_route_placeholder(rules),
                select_options,
            )
        )
    return view


def payment_view(
    game: int, version: int, rules: Rules, route_id: int, payments: Sequence[Mapping[str, int]]
) -> discord.ui.View:
    options = [discord.SelectOption(label=format_cards(rules, p)[:100], value=pay_code(p)) for p in payments[:25]]
    view = _view()
    view.add_item(
        GameSelect.make(ComponentId(Action.PAY, game, version, (str(route_id),)), choose_payment_placeholder(), options)
    )
    return view


def souvenir_view(
    game: int, version: int, route_id: int, code: str, ends: Sequence[tuple[str, str]]
) -> discord.ui.View:
    """`ends`: (place, its token's symbol) for both ends of the route."""
    options = [
        discord.SelectOption(label=souvenir_choice(symbol_name(symbol), place)[:100], value=place)
        for place, symbol in ends
    ]
    view = _view()
    view.add_item(
        GameSelect.make(
            ComponentId(Action.SOUVENIR, game, version, (str(route_id), code)), choose_souvenir_placeholder(), options
        )
    )
    return view


def setup_view(game: int, version: int, rules: Rules) -> discord.ui.View:
    view = _view()
    view.add_item(
        GameButton.make(
            ComponentId(Action.SETUP, game, version),
            choose_tickets_label(rules),
            style=discord.ButtonStyle.primary,
        )
    )
    view.add_item(hand_button(game, version))
    return view


def place_view(game: int, version: int) -> discord.ui.View:
    view = _view()
    view.add_item(
        GameButton.make(
            ComponentId(Action.PLACE, game, version), place_stack_label(), style=discord.ButtonStyle.primary
        )
    )
    view.add_item(hand_button(game, version))
    return view


def symbol_view(game: int, version: int, symbols: Sequence[str]) -> discord.ui.View:
    options = [discord.SelectOption(label=symbol_name(s), value=s) for s in symbols]
    view = _view()
    view.add_item(GameSelect.make(ComponentId(Action.SYMBOL, game, version), which_stack_placeholder(), options))
    return view


def spot_view(game: int, version: int, symbol: str, places: Sequence[str]) -> discord.ui.View:
    options = [discord.SelectOption(label=p[:100], value=p) for p in places[:25]]
    view = _view()
    view.add_item(
        GameSelect.make(
            ComponentId(Action.SPOT, game, version, (symbol,)),
            spot_prompt(symbol),
            options,
        )
    )
    return view
