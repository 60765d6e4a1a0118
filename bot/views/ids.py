"""Custom ids of the bot's buttons and menus: "ttr:ACTION:GAME:VERSION[:ARG...]".

Buttons start with "ttr:", select menus with "ttrs:". The version is the
game's version when the component was shown, so a click on an outdated
component can be recognised and refused instead of acted on. Discord allows
100 characters; the arguments are short (a colour, a route id, a payment code: bot/views/pay_codes.py).

The ACTION names of game controls (`Action`) are stored in messages Discord
keeps, so a name never changes: the buttons of old messages must keep working.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

BUTTON = "ttr"
SELECT = "ttrs"
MAX_LENGTH = 100
_ARG = r"[A-Za-z0-9_.+\-]*"
BUTTON_TEMPLATE = rf"ttr:(?P<action>[a-z]+):(?P<game>\d+):(?P<version>\d+)(?P<args>(?::{_ARG})*)"
SELECT_TEMPLATE = rf"ttrs:(?P<action>[a-z]+):(?P<game>\d+):(?P<version>\d+)(?P<args>(?::{_ARG})*)"
_ARG_RE = re.compile(_ARG)


class Action(StrEnum):
    HAND = "hand"  # show my cards and tickets
    SETUP = "setup"  # the ticket choice at the start: show it
    PLACE = "place"  # a tourist-stack placement: show the choice
    DRAW = "draw"  # draw a card; arg 0: "deck" or the face-up colour
    PASS = "pass"  # pass the turn (when nothing else is possible)
    CLAIM = "claim"  # show the routes I may claim
    TICKETS = "tickets"  # draw tickets (or show the ones I am choosing from)
    TUNNEL = "tunnel"  # pay a tunnel's surcharge; arg 0: a payment code, or "giveup"
    SETUPKEEP = "setupkeep"  # keep starting tickets; values: ticket ids
    KEEP = "keep"  # keep drawn tickets; values: ticket ids
    ROUTE = "route"  # claim a route; value: its id
    PAY = "pay"  # claim a route, paid so; arg 0: the route id; value: a payment code
    SOUVENIR = "souvenir"  # claim a route and take a souvenir; args: route id, payment code; value: the place
    SYMBOL = "symbol"  # which tourist stack to place; value: its symbol
    SPOT = "spot"  # where the stack goes; arg 0: the symbol; value: the place
    TICKETSOK = "ticketsok"  # confirmed: draw tickets now
    CLAIMOK = "claimok"  # confirmed: claim a route; args: route id, payment code
    PAYPICK = "paypick"  # another payment for the claim being confirmed; arg 0: the route id; value: a payment code
    CANCEL = "cancel"  # a confirmation declined: nothing is done
    PLAN = "plan"  # my plan for my next turn, from the hand panel's menu; value: deck, tickets, suggest, show, clear


@dataclass(frozen=True)
class ComponentId:
    action: str
    game: int
    version: int
    args: tuple[str, ...] = ()

    def text(self, prefix: str) -> str:
        for arg in self.args:
            if not _ARG_RE.fullmatch(arg):
                raise ValueError(f"custom id argument {arg!r} has characters a custom id cannot carry")
        out = ":".join([prefix, self.action, str(self.game), str(self.version), *self.args])
        if len(out) > MAX_LENGTH:
            raise ValueError(f"custom id {out!r} is longer than {MAX_LENGTH} characters")
        return out

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ComponentId:
        args = match.group("args")
        return cls(
            match.group("action"),
            int(match.group("game")),
            int(match.group("version")),
            tuple(args[1:].split(":")) if args else (),
        )

    def arg(self, index: int, default: str = "") -> str:
        return self.args[index] if index < len(self.args) else default
