"""The private panel in words: what a player must decide now (the buttons and menus come with it)."""

from __future__ import annotations

from bot.present.stage import must_text
from bot.present.words import plural
from bot.service import Must
from maps import Rules
from maps.names import symbol_name


def spot_prompt(symbol: str) -> str:
    """Where a tourist stack goes."""
    return f"Where does the {symbol_name(symbol)} stack go?"


def game_is_text(game_id: int, status: str) -> str:
    return f"Game #{game_id} is {status}."


def second_draw_prompt() -> str:
    return "Draw your second card:"


def tunnel_prompt(surcharge: int, *, can_pay: bool) -> str:
    """A tunnel's surcharge, and whether the player can pay it."""
    text = f"The tunnel asks for {plural(surcharge, 'more card')}."
    return text + (" Pay it or give the tunnel up." if can_pay else " You cannot pay it: give the tunnel up.")


def stack_prompt() -> str:
    return "Which tourist stack do you place?"


def nothing_to_do_prompt() -> str:
    return "Your turn, but there is nothing you can do: pass."


def turn_prompt(rules: Rules) -> str:
    return f"Your turn: {must_text(rules, Must.TURN)}."
