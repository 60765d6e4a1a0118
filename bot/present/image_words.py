"""The words of the images and their alt texts, in one language: the renderer asks an `image_words(language)`.

Images are drawn in worker threads, outside the code that asked for them, so
the words object carries its language and speaks it in every method (each
public method runs inside `speaking(self.language)`).

Built on `bot.present.words` (with `bonus_words` and `names`), so an image
names a card and counts a thing as every other text does; the sentences of the
alt texts are written in `bot.present.alt_texts`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Concatenate, ParamSpec, TypeVar

from bot.present import alt_texts
from bot.present.bonus_words import kinds_counted, longest_name, longest_short_name, mandala_name
from bot.present.i18n import _, map_, ngettext, pgettext, speaking
from bot.present.names import map_title, names_and
from bot.present.ties import tie_sentence
from bot.present.words import (
    card_name,
    cards_counted,
    colour_name,
    ferry_spaces_counted,
    pieces_counted,
    points_counted,
    ticket_word,
    tickets_counted_object,
    tickets_plural,
    tunnel_word,
)
from bot.service.kinds import Language
from engine.scoring import TieBreak
from engine.state import PlayerState, Stack
from maps import WILD, Board, Route, Rules, Ticket
from maps.names import symbol_name
from render.palette import PlayerStyle
from render.words import ImageWords, LegendMark

P = ParamSpec("P")
R = TypeVar("R")


class LocalImageWords:
    """`ImageWords` in `language`."""

    def __init__(self, language: Language) -> None:
        self.language = language

    # ----- things and people ---------------------------------------------------------

    def nameless_player(self, seat: int) -> str:
        return _("Player {number}").format(number=seat + 1)

    def card(self, rules: Rules, card: str) -> str:
        return card_name(rules, card)

    def empty_slot(self) -> str:
        return alt_texts.empty_slot()

    def route(self, route: Route) -> str:
        extra = []
        if route.tunnel:
            extra.append(tunnel_word(1))
        if route.ferries:
            extra.append(ferry_spaces_counted(route.ferries))
        text = _("{a} – {b} ({length} {colour}, {extra})") if extra else _("{a} – {b} ({length} {colour})")
        return text.format(
            a=route.a, b=route.b, length=route.length, colour=colour_name(route.color), extra=", ".join(extra)
        )

    def ticket(self, ticket: Ticket) -> str:
        return alt_texts.ticket_text(ticket)

    def tourist_symbol(self, symbol: str) -> str:
        return symbol_name(symbol)

    def colour_cue(self, style: PlayerStyle) -> str:
        return alt_texts.colour_cue(style)

    # ----- what happens now ----------------------------------------------------------

    def won(self, winners: Sequence[str]) -> str:
        if len(winners) == 1:
            return _("Game over: {name} wins").format(name=winners[0])
        return _("Game over: {names} share the win").format(names=names_and(winners))

    def choosing_tickets(self, rules: Rules, players: Sequence[str]) -> str:
        if rules.name == "amsterdam":  # its rulebook's contracts (English: tickets, as on every map)
            return pgettext("Amsterdam", "Setup: {players} to choose tickets").format(players=", ".join(players))
        return _("Setup: {players} to choose tickets").format(players=", ".join(players))

    def to_play(self, who: str) -> str:
        return _("{who} to play").format(who=who)

    def to_draw_second(self, who: str) -> str:
        return _("{who} to draw a second card").format(who=who)

    def to_keep_tickets(self, rules: Rules, who: str) -> str:
        if rules.name == "amsterdam":
            return pgettext("Amsterdam", "{who} to choose tickets to keep").format(who=who)
        return _("{who} to choose tickets to keep").format(who=who)

    def to_place_stack(self, who: str) -> str:
        return _("{who} to place a tourist stack").format(who=who)

    def to_pay_tunnel(self, who: str, surcharge: int) -> str:
        return _("{who} to pay {count} more for the tunnel, or give it up").format(who=who, count=surcharge)

    def final_round(self, turns: int) -> str:
        return ngettext("Final round: {count} turn left", "Final round: {count} turns left", turns).format(count=turns)

    # ----- the last move -------------------------------------------------------------

    def claimed(self, who: str, route: Route, rules: Rules) -> str:
        return map_(rules.name, "{who} claimed {route}").format(who=who, route=self.route(route))

    def trying_tunnel(self, who: str, route: Route) -> str:
        return _("{who} is trying the tunnel {route}").format(who=who, route=self.route(route))

    def paid_tunnel(self, who: str, route: Route, rules: Rules) -> str:
        return map_(rules.name, "{who} paid the tunnel and claimed {route}").format(who=who, route=self.route(route))

    def gave_up_tunnel(self, who: str) -> str:
        return _("{who} gave up a tunnel").format(who=who)

    def drew_from_deck(self, who: str) -> str:
        return _("{who} drew a card from the deck").format(who=who)

    def took_face_up(self, who: str, rules: Rules, card: str) -> str:
        return _("{who} took a face-up {card}").format(who=who, card=card_name(rules, card))

    def drew_tickets(self, who: str, rules: Rules) -> str:
        return _("{who} drew {tickets}").format(who=who, tickets=tickets_plural(rules))

    def kept_tickets(self, who: str, rules: Rules, count: int) -> str:
        return _("{who} kept {tickets}").format(who=who, tickets=tickets_counted_object(rules, count))

    def placed_stack(self, who: str, symbol: str, place: str) -> str:
        return _("{who} placed the {symbol} stack at {place}").format(
            who=who, symbol=self.tourist_symbol(symbol), place=place
        )

    def passed(self, who: str) -> str:
        return _("{who} passed").format(who=who)

    # ----- the panel -----------------------------------------------------------------

    def turn_heading(self, rules: Rules, turn: int) -> str:
        return _("{map} · turn {turn}").format(map=map_title(rules), turn=turn)

    def setup_heading(self, rules: Rules) -> str:
        return _("{map} · setup").format(map=map_title(rules))

    def final_heading(self, rules: Rules) -> str:
        return _("{map} · final scores").format(map=map_title(rules))

    def if_ended_heading(self, rules: Rules) -> str:
        return _("{map} · scores if the game ended now").format(map=map_title(rules))

    def points_heading(self) -> str:
        return pgettext("heading", "points")

    def final_score_heading(self) -> str:
        return pgettext("heading", "final score")

    def counts(self, rules: Rules, player: PlayerState, longest: int | None = None) -> str:
        return " · ".join(alt_texts.seat_counts(rules, player, longest))

    def face_up_heading(self) -> str:
        return pgettext("heading", "Face-up cards")

    def piles(self, deck: int, discard: int) -> str:
        return _("Deck {deck} · discard {discard}").format(deck=deck, discard=discard)

    def tickets_left(self, rules: Rules, count: int) -> str:
        return _("{tickets} left {count}").format(tickets=tickets_plural(rules).capitalize(), count=count)

    def merchandise_left(self, count: int) -> str:
        return _("Merchandise cards left {count}").format(count=count)

    def legend_heading(self) -> str:
        return pgettext("heading", "On the board")

    def legend(self, mark: LegendMark, rules: Rules) -> str:
        if mark is LegendMark.GRAY_ROUTE:
            return map_(rules.name, "gray route: any one colour")
        if mark is LegendMark.LAST_MOVE:
            return _("white halo: the last move")
        if mark is LegendMark.TUNNEL:
            return _("dashed rim: tunnel (3 cards are revealed)")
        if mark is LegendMark.FERRY:
            return _("rainbow ends: pay a {wild} there").format(wild=card_name(rules, WILD))
        if mark is LegendMark.CART:
            return _("cart: claiming it earns a merchandise card")
        if mark is LegendMark.STACK:
            return _("tourist stack: number = tokens left")
        return _("ring: your {ticket} (dashed: not done yet)").format(ticket=ticket_word(rules, 1))

    def board_caption(self, rules: Rules) -> str:
        return _("Conductor's own board for the {map} rules").format(map=map_title(rules))

    # ----- the private view ----------------------------------------------------------

    def hand_heading(self, total: int) -> str:
        return _("Your cards ({count})").format(count=total)

    def no_cards(self) -> str:
        return pgettext("cards", "none")

    def tickets_heading(self, rules: Rules, kept: int) -> str:
        return _("Your {tickets} ({count})").format(tickets=tickets_plural(rules), count=kept)

    def no_tickets_yet(self) -> str:
        return pgettext("tickets", "none yet")

    def offer_heading(self, keep_at_least: int) -> str:
        return _("To choose from (keep at least {count})").format(count=keep_at_least)

    def ticket_on_offer(self, points: int) -> str:
        return points_counted(points)

    def ticket_done(self, points: int) -> str:
        return _("✓ done  +{points}").format(points=points)

    def ticket_not_done(self, points: int) -> str:
        return _("not yet  {points}").format(points=points).replace("-", "−")

    # ----- the final scores ----------------------------------------------------------

    def winner_badge(self) -> str:
        return _("★ winner")

    def total(self) -> str:
        return pgettext("score row", "total")

    def routes_row(self, routes: int, rules: Rules) -> str:
        return map_(rules.name, "routes ({count})").format(count=routes)

    def tickets_done_row(self, rules: Rules, done: int) -> str:
        return _("{tickets} done ({count})").format(tickets=tickets_plural(rules), count=done)

    def tickets_failed_row(self, rules: Rules, failed: int) -> str:
        return _("{tickets} failed ({count})").format(tickets=tickets_plural(rules), count=failed)

    def longest_row(self, rules: Rules, length: int) -> str:
        # India calls it the Indian Express; elsewhere the short name fits the card
        return f"{longest_short_name(rules)} ({length})"

    def mandala_row(self) -> str:
        return mandala_name()

    def merchandise_row(self, cards: int) -> str:
        return _("merchandise ({cards})").format(cards=cards_counted(cards))

    def tourists_row(self, kinds: int) -> str:
        return _("tourists ({kinds})").format(kinds=kinds_counted(kinds))

    def longest_note(self, rules: Rules, holders: Sequence[str], length: int) -> str:
        longest = longest_name(rules)
        if not holders:
            return _("Nobody has a {longest}.").format(longest=longest)
        if not rules.longest_bonus:
            text = _("Gold on the board: the {longest} of {names}, {pieces} (no bonus on this map).")
        elif len(holders) > 1:
            text = _("Gold on the board: the {longest} of {names}, {pieces}, +{bonus} each.")
        else:
            text = _("Gold on the board: the {longest} of {names}, {pieces}, +{bonus}.")
        return text.format(
            longest=longest,
            names=names_and(holders),
            pieces=pieces_counted(rules, length),
            bonus=rules.longest_bonus,
        )

    def tie_note(self, rules: Rules, tie: TieBreak, names: Mapping[str, str]) -> str:
        return tie_sentence(tie, rules, lambda p: names.get(p, p))

    # ----- alt text ------------------------------------------------------------------

    def sentence(self, phrase: str) -> str:
        return f"{phrase}."

    def board_summary(self, board: Board, claimed: int) -> str:
        return alt_texts.board_summary(board, claimed)

    def last_move_sentence(self, move: str, outlined: bool) -> str:
        return alt_texts.last_move_sentence(move, outlined)

    def player_entry(
        self, rules: Rules, name: str, style: PlayerStyle, player: PlayerState, longest: int | None = None
    ) -> str:
        return alt_texts.player_entry(rules, name, style, player, longest)

    def players_sentence(self, entries: Sequence[str]) -> str:
        return alt_texts.players_sentence(entries)

    def cards_sentence(self, rules: Rules, face_up: Sequence[str | None], deck: int, discard: int, tickets: int) -> str:
        return alt_texts.cards_sentence(rules, face_up, deck, discard, tickets)

    def stacks_sentence(self, stacks: Mapping[str, Stack]) -> str:
        return alt_texts.stacks_sentence(stacks)

    def private_intro(self, rules: Rules, name: str) -> str:
        return alt_texts.private_intro(rules, name)

    def hand_sentence(self, rules: Rules, hand: Mapping[str, int]) -> str:
        return alt_texts.hand_sentence(rules, hand)

    def ticket_entry(self, tag: str, ticket: Ticket, done: bool | None, points: int) -> str:
        return alt_texts.ticket_entry(tag, ticket, done, points)

    def tickets_sentence(self, rules: Rules, entries: Sequence[str]) -> str:
        return alt_texts.tickets_sentence(rules, entries)

    def scores_intro(self, rules: Rules, final: bool) -> str:
        return alt_texts.scores_intro(rules, final)

    def score_sentence(self, name: str, style: PlayerStyle, total: int, rows: Sequence[tuple[str, int]]) -> str:
        return alt_texts.score_sentence(name, style, total, rows)

    def longest_outlined(self, rules: Rules, holders: Sequence[str], length: int) -> str:
        return alt_texts.longest_outlined(rules, holders, length)


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
