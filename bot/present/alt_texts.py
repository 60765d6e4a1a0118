"""The alt texts of the images, in the language spoken: the sentences that tell a board, a private view and
the final scores to whoever cannot see them, and the words they share with the images (a seat's counts and
colour cue, a ticket, an empty card slot). `image_words.py` asks them, inside the image's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.present.bonus_words import longest_name, merchandise_counted, souvenirs_counted
from bot.present.i18n import _, map_, pgettext
from bot.present.names import map_title, mark_name, names_and, player_colour_name
from bot.present.words import (
    card_count,
    card_name,
    cards_counted,
    pieces_counted,
    points_counted,
    tickets_counted,
    tickets_plural,
)
from engine.state import PlayerState, Stack
from maps import Board, Rules, Ticket
from maps.names import symbol_name
from render.palette import PlayerStyle


def seat_counts(rules: Rules, player: PlayerState, longest: int | None = None) -> list[str]:
    """A seat's public counts: pieces, cards, tickets, this map's extras and its longest path (if it scores one)."""
    parts = [
        pieces_counted(rules, player.trains),
        cards_counted(player.cards),
        tickets_counted(rules, len(player.tickets)),
    ]
    if rules.merchandise:
        parts.append(merchandise_counted(player.merchandise))
    if rules.tourists:
        parts.append(souvenirs_counted(len(player.souvenirs)))
    if longest is not None:
        parts.append(_("longest path {length}").format(length=longest))
    return parts


def empty_slot() -> str:
    """A face-up card slot with no card in it."""
    return pgettext("card slot", "empty")


def ticket_text(ticket: Ticket) -> str:
    """A ticket by its places ("Bern – Basel", "Genève → France 10, Italia 12")."""
    if ticket.is_country_ticket:
        targets = ", ".join(f"{t.name} {t.points}" for t in ticket.targets)
        return f"{ticket.origin} → {targets}"
    return f"{ticket.origin} – {ticket.targets[0].name}"


def colour_cue(style: PlayerStyle) -> str:
    """A seat's colour and the mark on its trains ("vermilion, triangle")."""
    return f"{player_colour_name(style.name)}, {mark_name(style.mark)}"


def seat(name: str, style: PlayerStyle) -> str:
    """A seat by its name and colour cue."""
    return f"{name} ({colour_cue(style)})"


def board_summary(board: Board, claimed: int) -> str:
    if board.designed:
        text = map_(
            board.rules.name,
            "{map} board (Conductor's own board for these rules), {claimed} of {total} routes claimed.",
        )
    else:
        text = map_(board.rules.name, "{map} board, {claimed} of {total} routes claimed.")
    return text.format(map=map_title(board.rules), claimed=claimed, total=len(board.routes))


def last_move_sentence(move: str, outlined: bool) -> str:
    if outlined:
        return _("Last move: {move}; it is outlined in white.").format(move=move)
    return _("Last move: {move}.").format(move=move)


def player_entry(rules: Rules, name: str, style: PlayerStyle, player: PlayerState, longest: int | None = None) -> str:
    counts = [points_counted(player.route_points), *seat_counts(rules, player, longest)]
    return f"{seat(name, style)}: {', '.join(counts)}"


def players_sentence(entries: Sequence[str]) -> str:
    return _("Players: {players}.").format(players="; ".join(entries))


def cards_sentence(rules: Rules, face_up: Sequence[str | None], deck: int, discard: int, tickets: int) -> str:
    cards = ", ".join(empty_slot() if c is None else card_name(rules, c) for c in face_up)
    return _("Face-up cards: {cards}. Deck {deck}, discard {discard}, {tickets} left.").format(
        cards=cards, deck=deck, discard=discard, tickets=tickets_counted(rules, tickets)
    )


def stacks_sentence(stacks: Mapping[str, Stack]) -> str:
    listed = [
        _("{symbol} at {place} ({tokens})").format(symbol=symbol_name(s.symbol), place=place, tokens=s.tokens)
        for place, s in sorted(stacks.items())
    ]
    return _("Tourist stacks: {stacks}.").format(stacks=", ".join(listed))


def private_intro(rules: Rules, name: str) -> str:
    return _("Private view for {name} on the {map} board.").format(name=name, map=map_title(rules))


def hand_sentence(rules: Rules, hand: Mapping[str, int]) -> str:
    cards = ", ".join(card_count(rules, c, n) for c, n in sorted(hand.items()) if n > 0)
    if not cards:
        return _("Your cards: none.")
    return _("Your cards: {cards}.").format(cards=cards)


def ticket_entry(tag: str, ticket: Ticket, done: bool | None, points: int) -> str:
    text = ticket_text(ticket)
    if done is None:
        return _("on offer {tag}: {ticket}").format(tag=tag, ticket=text)
    if done:
        return _("{tag}: {ticket}, done, +{points}").format(tag=tag, ticket=text, points=points)
    return _("{tag}: {ticket}, not yet done, {points}").format(tag=tag, ticket=text, points=points)


def tickets_sentence(rules: Rules, entries: Sequence[str]) -> str:
    if not entries:
        return _("Your {tickets}, their places ringed on the board: none.").format(tickets=tickets_plural(rules))
    return _("Your {tickets}, their places ringed on the board: {entries}.").format(
        tickets=tickets_plural(rules), entries="; ".join(entries)
    )


def scores_intro(rules: Rules, final: bool) -> str:
    if final:
        return _("Final scores on the {map} board.").format(map=map_title(rules))
    return _("Scores on the {map} board if the game ended now.").format(map=map_title(rules))


def score_sentence(name: str, style: PlayerStyle, total: int, rows: Sequence[tuple[str, int]]) -> str:
    listed = ", ".join(f"{label} {points:+d}" for label, points in rows)
    return f"{seat(name, style)}: {total} ({listed})."


def longest_outlined(rules: Rules, holders: Sequence[str], length: int) -> str:
    return _("The {longest} ({length}) of {names} is outlined in gold.").format(
        longest=longest_name(rules), length=length, names=names_and(holders)
    )
