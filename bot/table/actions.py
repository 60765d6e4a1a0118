"""What a button, a menu or a command asks the table to do: one name per action.

The names are the ACTION part of the components' custom ids
("ttr:ACTION:GAME:VERSION[:ARG...]", bot/views/ids.py). They are stored in
messages Discord keeps, so a name never changes: the buttons of old messages
must keep working.
"""

from __future__ import annotations

from enum import StrEnum


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
