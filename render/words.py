"""Every text an image or its alt text shows, asked of a `words` object.

The renderer draws and arranges; it writes no words of its own. Each image
function takes `words: ImageWords` and asks it for each phrase, passing the
game's data (a seat's name as drawn, a route, a ticket, counts), so that a
phrase is written whole by whoever knows the language. Names are passed as
they are drawn: a name the font cannot draw arrives as `nameless_player`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Protocol

from engine.scoring import TieBreak
from engine.state import PlayerState, Stack
from maps import Board, Route, Rules, Ticket
from render.palette import PlayerStyle


class LegendMark(StrEnum):
    """A mark the legend explains (each map lists only those it has)."""

    GRAY_ROUTE = "gray"
    LAST_MOVE = "last"
    TUNNEL = "tunnel"
    FERRY = "ferry"
    CART = "cart"
    STACK = "stack"
    TICKET = "ticket"  # the private view's rings


class ImageWords(Protocol):
    """The words of the board, private and final images and of their alt texts."""

    @property
    def language(self) -> str:
        """The code of the language the words are in ("en", "sv"): part of the key of every image kept."""
        ...

    # ----- things and people ---------------------------------------------------------

    def nameless_player(self, seat: int) -> str:
        """A seat whose name has nothing the font can draw."""
        ...

    def card(self, rules: Rules, card: str) -> str:
        """A card as players call it on this map."""
        ...

    def empty_slot(self) -> str:
        """A face-up card slot with no card in it."""
        ...

    def route(self, route: Route) -> str:
        """A route with its ends, length, colour, tunnel and ferry spaces."""
        ...

    def ticket(self, ticket: Ticket) -> str:
        """A ticket's places (and each target's points for a country ticket)."""
        ...

    def tourist_symbol(self, symbol: str) -> str:
        """A San Francisco tourist symbol."""
        ...

    def colour_cue(self, style: PlayerStyle) -> str:
        """A seat's colour and the mark on its trains, for readers who cannot see them."""
        ...

    # ----- what happens now ----------------------------------------------------------

    def won(self, winners: Sequence[str]) -> str:
        """The game is over: who won (several share a tie)."""
        ...

    def choosing_tickets(self, rules: Rules, players: Sequence[str]) -> str:
        """Setup: the players still choosing their first tickets (the map's word for them)."""
        ...

    def to_play(self, who: str) -> str: ...

    def to_draw_second(self, who: str) -> str: ...

    def to_keep_tickets(self, rules: Rules, who: str) -> str: ...

    def to_place_stack(self, who: str) -> str: ...

    def to_pay_tunnel(self, who: str, surcharge: int) -> str: ...

    def final_round(self, turns: int) -> str:
        """The last round has begun: `turns` are left."""
        ...

    # ----- the last move -------------------------------------------------------------

    def claimed(self, who: str, route: Route, rules: Rules) -> str: ...

    def trying_tunnel(self, who: str, route: Route) -> str:
        """A tunnel claimed and waiting for its surcharge."""
        ...

    def paid_tunnel(self, who: str, route: Route, rules: Rules) -> str: ...

    def gave_up_tunnel(self, who: str) -> str: ...

    def drew_from_deck(self, who: str) -> str: ...

    def took_face_up(self, who: str, rules: Rules, card: str) -> str: ...

    def drew_tickets(self, who: str, rules: Rules) -> str: ...

    def kept_tickets(self, who: str, rules: Rules, count: int) -> str: ...

    def placed_stack(self, who: str, symbol: str, place: str) -> str: ...

    def passed(self, who: str) -> str: ...

    # ----- the panel -----------------------------------------------------------------

    def turn_heading(self, rules: Rules, turn: int) -> str:
        """The panel's title while playing; `turn` counts from 1."""
        ...

    def setup_heading(self, rules: Rules) -> str: ...

    def final_heading(self, rules: Rules) -> str:
        """The final image's title for a game that is over."""
        ...

    def if_ended_heading(self, rules: Rules) -> str:
        """The final image's title for a game still being played."""
        ...

    def points_heading(self) -> str: ...

    def final_score_heading(self) -> str: ...

    def counts(self, rules: Rules, player: PlayerState, longest: int | None = None) -> str:
        """A seat's public counts under its name: pieces, cards, tickets, this map's extras; `longest`: the length
        of its longest path now, on maps that score it."""
        ...

    def face_up_heading(self) -> str: ...

    def piles(self, deck: int, discard: int) -> str: ...

    def tickets_left(self, rules: Rules, count: int) -> str: ...

    def merchandise_left(self, count: int) -> str: ...

    def legend_heading(self) -> str: ...

    def legend(self, mark: LegendMark, rules: Rules) -> str:
        """What `mark` means on this map's board."""
        ...

    def board_caption(self, rules: Rules) -> str:
        """Drawn in a corner of a board the project designed itself."""
        ...

    # ----- the private view ----------------------------------------------------------

    def hand_heading(self, total: int) -> str: ...

    def no_cards(self) -> str: ...

    def tickets_heading(self, rules: Rules, kept: int) -> str: ...

    def no_tickets_yet(self) -> str: ...

    def offer_heading(self, keep_at_least: int) -> str:
        """Above the tickets on offer."""
        ...

    def ticket_on_offer(self, points: int) -> str: ...

    def ticket_done(self, points: int) -> str: ...

    def ticket_not_done(self, points: int) -> str:
        """A kept ticket not connected yet; `points` is what it costs (negative)."""
        ...

    # ----- the final scores ----------------------------------------------------------

    def winner_badge(self) -> str: ...

    def total(self) -> str: ...

    def routes_row(self, routes: int, rules: Rules) -> str: ...

    def tickets_done_row(self, rules: Rules, done: int) -> str: ...

    def tickets_failed_row(self, rules: Rules, failed: int) -> str: ...

    def longest_row(self, rules: Rules, length: int) -> str: ...

    def mandala_row(self) -> str: ...

    def merchandise_row(self, cards: int) -> str: ...

    def tourists_row(self, kinds: int) -> str: ...

    def longest_note(self, rules: Rules, holders: Sequence[str], length: int) -> str:
        """Who holds the longest path drawn in gold; no `holders`: nobody has one."""
        ...

    def tie_note(self, rules: Rules, tie: TieBreak, names: Mapping[str, str]) -> str:
        """How a tie on points was broken (a sentence); `names` are the players' names as drawn."""
        ...

    # ----- alt text ------------------------------------------------------------------

    def sentence(self, phrase: str) -> str:
        """A phrase of the panel (the status, the final round) as a sentence of its own."""
        ...

    def board_summary(self, board: Board, claimed: int) -> str: ...

    def last_move_sentence(self, move: str, outlined: bool) -> str:
        """The last move; `outlined`: its route is outlined on the board."""
        ...

    def player_entry(
        self, rules: Rules, name: str, style: PlayerStyle, player: PlayerState, longest: int | None = None
    ) -> str:
        """A seat and its public counts (with `longest`, as `counts`), one entry of `players_sentence`."""
        ...

    def players_sentence(self, entries: Sequence[str]) -> str: ...

    def cards_sentence(self, rules: Rules, face_up: Sequence[str | None], deck: int, discard: int, tickets: int) -> str:
        """The face-up cards (None: an empty slot) and the sizes of the piles."""
        ...

    def stacks_sentence(self, stacks: Mapping[str, Stack]) -> str:
        """San Francisco's tourist stacks, by place."""
        ...

    def private_intro(self, rules: Rules, name: str) -> str: ...

    def hand_sentence(self, rules: Rules, hand: Mapping[str, int]) -> str: ...

    def ticket_entry(self, tag: str, ticket: Ticket, done: bool | None, points: int) -> str:
        """One of the viewer's tickets; `done` None: on offer."""
        ...

    def tickets_sentence(self, rules: Rules, entries: Sequence[str]) -> str: ...

    def scores_intro(self, rules: Rules, final: bool) -> str:
        """`final`: the scores are final; else they are as if the game ended now."""
        ...

    def score_sentence(self, name: str, style: PlayerStyle, total: int, rows: Sequence[tuple[str, int]]) -> str:
        """A seat's total and its `score_rows` (label, points)."""
        ...

    def longest_outlined(self, rules: Rules, holders: Sequence[str], length: int) -> str: ...
