"""The words of the images and their alt texts, in one language: the renderer asks an `image_words(language)`.

Images are drawn in worker threads, outside the code that asked for them, so
the words object carries its language and speaks it in every method (each
public method runs inside `speaking(self.language)`).

Built on `bot.present.words`, so an image names a card and counts a thing as
every other text does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Concatenate, ParamSpec, TypeVar

from bot.present.i18n import speaking
from bot.present.ties import tie_sentence
from bot.present.words import card_name, plural
from bot.service.kinds import Language
from engine.scoring import TieBreak
from engine.state import PlayerState, Stack
from maps import GRAY, Board, Route, Rules, Ticket
from maps.names import symbol_name
from render.palette import PlayerStyle
from render.words import ImageWords, LegendMark

P = ParamSpec("P")
R = TypeVar("R")


def _both(names: Sequence[str]) -> str:
    return " and ".join(names)


def _counts(rules: Rules, player: PlayerState, longest: int | None = None) -> list[str]:
    """A seat's public counts: pieces, cards, tickets, this map's extras and its longest path (if it scores one)."""
    parts = [
        plural(player.trains, rules.piece_name),
        plural(player.cards, "card"),
        plural(len(player.tickets), rules.ticket_name),
    ]
    if rules.merchandise:
        parts.append(f"{player.merchandise} merchandise")
    if rules.tourists:
        parts.append(plural(len(player.souvenirs), "souvenir"))
    if longest is not None:
        parts.append(f"longest path {longest}")
    return parts


class LocalImageWords:
    """`ImageWords` in `language`."""

    def __init__(self, language: Language) -> None:
        self.language = language

    # ----- things and people ---------------------------------------------------------

    def nameless_player(self, seat: int) -> str:
        return f"Player {seat + 1}"

    def card(self, rules: Rules, card: str) -> str:
        return card_name(rules, card)

    def empty_slot(self) -> str:
        return "empty"

    def route(self, route: Route) -> str:
        extra = []
        if route.tunnel:
            extra.append("tunnel")
        if route.ferries:
            extra.append(plural(route.ferries, "ferry space"))
        tail = f", {', '.join(extra)}" if extra else ""
        return f"{route.a} – {route.b} ({route.length} {route.color}{tail})"

    def ticket(self, ticket: Ticket) -> str:
        if ticket.is_country_ticket:
            targets = ", ".join(f"{t.name} {t.points}" for t in ticket.targets)
            return f"{ticket.origin} → {targets}"
        return f"{ticket.origin} – {ticket.targets[0].name}"

    def tourist_symbol(self, symbol: str) -> str:
        return symbol_name(symbol)

    def colour_cue(self, style: PlayerStyle) -> str:
        return f"{style.name}, {style.mark}"

    def _seat(self, name: str, style: PlayerStyle) -> str:
        return f"{name} ({self.colour_cue(style)})"

    # ----- what happens now ----------------------------------------------------------

    def won(self, winners: Sequence[str]) -> str:
        if len(winners) == 1:
            return f"Game over: {winners[0]} wins"
        return f"Game over: {_both(winners)} share the win"

    def choosing_tickets(self, players: Sequence[str]) -> str:
        return f"Setup: {', '.join(players)} to choose tickets"

    def to_play(self, who: str) -> str:
        return f"{who} to play"

    def to_draw_second(self, who: str) -> str:
        return f"{who} to draw a second card"

    def to_keep_tickets(self, who: str) -> str:
        return f"{who} to choose tickets to keep"

    def to_place_stack(self, who: str) -> str:
        return f"{who} to place a tourist stack"

    def to_pay_tunnel(self, who: str, surcharge: int) -> str:
        return f"{who} to pay {surcharge} more for the tunnel, or give it up"

    def final_round(self, turns: int) -> str:
        return f"Final round: {plural(turns, 'turn')} left"

    # ----- the last move -------------------------------------------------------------

    def claimed(self, who: str, route: Route) -> str:
        return f"{who} claimed {self.route(route)}"

    def trying_tunnel(self, who: str, route: Route) -> str:
        return f"{who} is trying the tunnel {self.route(route)}"

    def paid_tunnel(self, who: str, route: Route) -> str:
        return f"{who} paid the tunnel and claimed {self.route(route)}"

    def gave_up_tunnel(self, who: str) -> str:
        return f"{who} gave up a tunnel"

    def drew_from_deck(self, who: str) -> str:
        return f"{who} drew a card from the deck"

    def took_face_up(self, who: str, rules: Rules, card: str) -> str:
        return f"{who} took a face-up {card_name(rules, card)}"

    def drew_tickets(self, who: str, rules: Rules) -> str:
        return f"{who} drew {rules.ticket_name}s"

    def kept_tickets(self, who: str, rules: Rules, count: int) -> str:
        return f"{who} kept {plural(count, rules.ticket_name)}"

    def placed_stack(self, who: str, symbol: str, place: str) -> str:
        return f"{who} placed the {self.tourist_symbol(symbol)} stack at {place}"

    def passed(self, who: str) -> str:
        return f"{who} passed"

    # ----- the panel -----------------------------------------------------------------

    def turn_heading(self, rules: Rules, turn: int) -> str:
        return f"{rules.title} · turn {turn}"

    def setup_heading(self, rules: Rules) -> str:
        return f"{rules.title} · setup"

    def final_heading(self, rules: Rules) -> str:
        return f"{rules.title} · final scores"

    def if_ended_heading(self, rules: Rules) -> str:
        return f"{rules.title} · scores if the game ended now"

    def points_heading(self) -> str:
        return "points"

    def final_score_heading(self) -> str:
        return "final score"

    def counts(self, rules: Rules, player: PlayerState, longest: int | None = None) -> str:
        return " · ".join(_counts(rules, player, longest))

    def face_up_heading(self) -> str:
        return "Face-up cards"

    def piles(self, deck: int, discard: int) -> str:
        return f"Deck {deck} · discard {discard}"

    def tickets_left(self, rules: Rules, count: int) -> str:
        return f"{rules.ticket_name.capitalize()}s left {count}"

    def merchandise_left(self, count: int) -> str:
        return f"Merchandise cards left {count}"

    def legend_heading(self) -> str:
        return "On the board"

    def legend(self, mark: LegendMark, rules: Rules) -> str:
        return {
            LegendMark.GRAY_ROUTE: f"{GRAY} route: any one colour",
            LegendMark.LAST_MOVE: "white halo: the last move",
            LegendMark.TUNNEL: "dashed rim: tunnel (3 cards are revealed)",
            LegendMark.FERRY: f"rainbow ends: pay a {rules.wild_name} there",
            LegendMark.CART: "cart: claiming it earns a merchandise card",
            LegendMark.STACK: "tourist stack: number = tokens left",
            LegendMark.TICKET: f"ring: your {rules.ticket_name} (dashed: not done yet)",
        }[mark]

    def board_caption(self, rules: Rules) -> str:
        return f"Conductor's own board for the {rules.title} rules"

    # ----- the private view ----------------------------------------------------------

    def hand_heading(self, total: int) -> str:
        return f"Your cards ({total})"

    def no_cards(self) -> str:
        return "none"

    def tickets_heading(self, rules: Rules, kept: int) -> str:
        return f"Your {rules.ticket_name}s ({kept})"

    def no_tickets_yet(self) -> str:
        return "none yet"

    def offer_heading(self, keep_at_least: int) -> str:
        return f"To choose from (keep at least {keep_at_least})"

    def ticket_on_offer(self, points: int) -> str:
        return plural(points, "point")

    def ticket_done(self, points: int) -> str:
        return f"✓ done  +{points}"

    def ticket_not_done(self, points: int) -> str:
        return f"not yet  {points}".replace("-", "−")

    # ----- the final scores ----------------------------------------------------------

    def winner_badge(self) -> str:
        return "★ winner"

    def total(self) -> str:
        return "total"

    def routes_row(self, routes: int) -> str:
        return f"routes ({routes})"

    def tickets_done_row(self, rules: Rules, done: int) -> str:
        return f"{rules.ticket_name}s done ({done})"

    def tickets_failed_row(self, rules: Rules, failed: int) -> str:
        return f"{rules.ticket_name}s failed ({failed})"

    def longest_row(self, rules: Rules, length: int) -> str:
        # India calls it the Indian Express; elsewhere the short name fits the card
        name = "longest path" if rules.longest_name == "longest continuous path" else rules.longest_name
        return f"{name} ({length})"

    def mandala_row(self) -> str:
        return "Grand Tour (Mandala)"

    def merchandise_row(self, cards: int) -> str:
        return f"merchandise ({plural(cards, 'card')})"

    def tourists_row(self, kinds: int) -> str:
        return f"tourists ({plural(kinds, 'kind')})"

    def longest_note(self, rules: Rules, holders: Sequence[str], length: int) -> str:
        if not holders:
            return f"Nobody has a {rules.longest_name}."
        each = " each" if len(holders) > 1 else ""
        bonus = f", +{rules.longest_bonus}{each}" if rules.longest_bonus else " (no bonus on this map)"
        pieces = plural(length, rules.piece_name)
        return f"Gold on the board: the {rules.longest_name} of {_both(holders)}, {pieces}{bonus}."

    def tie_note(self, rules: Rules, tie: TieBreak, names: Mapping[str, str]) -> str:
        return tie_sentence(tie, rules, lambda p: names.get(p, p))

    # ----- alt text ------------------------------------------------------------------

    def sentence(self, phrase: str) -> str:
        return f"{phrase}."

    def board_summary(self, board: Board, claimed: int) -> str:
        caption = " (Conductor's own board for these rules)" if board.designed else ""
        return f"{board.rules.title} board{caption}, {claimed} of {len(board.routes)} routes claimed."

    def last_move_sentence(self, move: str, outlined: bool) -> str:
        return f"Last move: {move}{'; it is outlined in white' if outlined else ''}."

    def player_entry(
        self, rules: Rules, name: str, style: PlayerStyle, player: PlayerState, longest: int | None = None
    ) -> str:
        counts = [plural(player.route_points, "point"), *_counts(rules, player, longest)]
        return f"{self._seat(name, style)}: {', '.join(counts)}"

    def players_sentence(self, entries: Sequence[str]) -> str:
        return f"Players: {'; '.join(entries)}."

    def cards_sentence(self, rules: Rules, face_up: Sequence[str | None], deck: int, discard: int, tickets: int) -> str:
        cards = ", ".join(self.empty_slot() if c is None else card_name(rules, c) for c in face_up)
        return f"Face-up cards: {cards}. Deck {deck}, discard {discard}, {plural(tickets, rules.ticket_name)} left."

    def stacks_sentence(self, stacks: Mapping[str, Stack]) -> str:
        listed = [f"{self.tourist_symbol(s.symbol)} at {place} ({s.tokens})" for place, s in sorted(stacks.items())]
        return f"Tourist stacks: {', '.join(listed)}."

    def private_intro(self, rules: Rules, name: str) -> str:
        return f"Private view for {name} on the {rules.title} board."

    def hand_sentence(self, rules: Rules, hand: Mapping[str, int]) -> str:
        cards = ", ".join(f"{n} {card_name(rules, c)}" for c, n in sorted(hand.items()) if n > 0)
        return f"Your cards: {cards or 'none'}."

    def ticket_entry(self, tag: str, ticket: Ticket, done: bool | None, points: int) -> str:
        text = self.ticket(ticket)
        if done is None:
            return f"on offer {tag}: {text}"
        if done:
            return f"{tag}: {text}, done, +{points}"
        return f"{tag}: {text}, not yet done, {points}"

    def tickets_sentence(self, rules: Rules, entries: Sequence[str]) -> str:
        return f"Your {rules.ticket_name}s, their places ringed on the board: {'; '.join(entries) or 'none'}."

    def scores_intro(self, rules: Rules, final: bool) -> str:
        if final:
            return f"Final scores on the {rules.title} board."
        return f"Scores on the {rules.title} board if the game ended now."

    def score_sentence(self, name: str, style: PlayerStyle, total: int, rows: Sequence[tuple[str, int]]) -> str:
        listed = ", ".join(f"{label} {points:+d}" for label, points in rows)
        return f"{self._seat(name, style)}: {total} ({listed})."

    def longest_outlined(self, rules: Rules, holders: Sequence[str], length: int) -> str:
        return f"The {rules.longest_name} ({length}) of {_both(holders)} is outlined in gold."


def _spoken(method: Callable[Concatenate[LocalImageWords, P], R]) -> Callable[Concatenate[LocalImageWords, P], R]:
    def in_language(self: LocalImageWords, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with speaking(self.language):
            return method(self, *args, **kwargs)

    in_language.__name__ = method.__name__
    in_language.__doc__ = method.__doc__
    return in_language


for _name, _method in list(vars(LocalImageWords).items()):
    if callable(_method) and not _name.startswith("__"):
        setattr(LocalImageWords, _name, _spoken(_method))


@cache
def image_words(language: Language) -> ImageWords:
    """The words of the images in `language` (one object per language)."""
    return LocalImageWords(language)


IMAGE_WORDS: ImageWords = image_words(Language.EN)
