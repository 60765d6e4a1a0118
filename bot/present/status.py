"""A game's state in words: `/ttr status` for everyone, a player's own hand and tickets, a ticket choice."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.bonus_words import merchandise_counted, souvenirs_counted
from bot.present.cards import format_cards
from bot.present.escape import shown
from bot.present.i18n import _, ngettext, nmap_
from bot.present.layout import clip
from bot.present.lobby import lobby_text
from bot.present.moves import stalemate_text
from bot.present.names import map_title_of, names_and, status_word, ticket_label
from bot.present.seats import mention, player_label, seat_name
from bot.present.stage import breakdown_lines, must_text, ticket_result_lines
from bot.present.words import card_name, cards_counted, pieces_counted, pieces_plural, tickets_counted, tickets_plural
from bot.service import GameInfo, PrivateView, PublicView
from bot.service.scores import FinalScores, TicketLabel
from bot.service.views import PlayerView, TableView
from engine import Phase
from maps import Rules, load_board


def hand_text(rules: Rules, view: PrivateView) -> str:
    """A player's own cards and tickets (done or not), from the service's private view."""
    tickets = tickets_plural(rules)
    hand = view.hand
    lines = [
        _("**Your cards** ({count}): {cards}").format(count=sum(hand.values()), cards=format_cards(rules, hand)),
        _("**{Pieces} left:** {count}").format(Pieces=pieces_plural(rules).capitalize(), count=view.trains),
    ]
    if view.tickets:
        lines.append(_("**Your {tickets}:**").format(tickets=tickets))
        for t in view.tickets:
            if t.done:
                mark = "\N{WHITE HEAVY CHECK MARK} "
                label = ticket_label(rules, t.id)
                lines.append(mark + _("{ticket}: done, {points}").format(ticket=label, points=f"{t.points:+d}"))
            else:
                mark = "\N{WHITE LARGE SQUARE} "
                lines.append(
                    mark
                    + _("{ticket}: not yet, {points} if the game ended now").format(
                        ticket=ticket_label(rules, t.id), points=f"{t.points:+d}"
                    )
                )
    else:
        lines.append(_("**Your {tickets}:** none yet").format(tickets=tickets))
    if view.offered:
        numbered = "; ".join(f"{i}. {ticket_label(rules, t.id)}" for i, t in enumerate(view.offered, start=1))
        lines.append(
            _("**To choose** (keep at least {count}): {tickets}").format(count=view.keep_minimum, tickets=numbered)
        )
    if view.your_move and view.must:
        lines.append(_("**Your move:** {must}.").format(must=must_text(rules, view.must)))
    return clip("\n".join(lines))


def offered_text(rules: Rules, offered: Sequence[TicketLabel], least: int) -> str:
    numbered = "\n".join(f"{i}. {ticket_label(rules, t.id)}" for i, t in enumerate(offered, start=1))
    return (
        _("Choose the {tickets} to keep (at least {count}) in the menu, or with `/ttr keep` and their numbers:").format(
            tickets=tickets_plural(rules), count=least
        )
        + "\n"
        + numbered
    )


def offer_image_text(rules: Rules, count: int) -> str:
    """The line under a ticket offer that its image goes with: the offered tickets' letters on the map."""
    letters = ", ".join(chr(ord("A") + k) for k in range(count))
    return _("The image shows the {tickets} offered on the map as {letters}, in this order.").format(
        tickets=tickets_plural(rules), letters=letters
    )


def player_line(info: GameInfo, rules: Rules, p: PlayerView, *, member: bool = True) -> str:
    """A player's row: name (`member`: with their mention), route points, trains, cards, tickets, routes and what
    the map adds (merchandise, souvenirs, the longest path)."""
    extra = ""
    if p.merchandise is not None:
        extra += ", " + merchandise_counted(p.merchandise)
    if p.souvenirs is not None:
        extra += ", " + souvenirs_counted(len(p.souvenirs))
    if p.longest is not None:
        extra += ", " + _("longest path {length}").format(length=p.longest)
    name = player_label(info, p.player)
    tag = f" ({mention(p.user_id)})" if member and p.user_id is not None and p.user_id > 0 else ""
    points = nmap_(rules.name, "{count} route point", "{count} route points", p.route_points).format(
        count=p.route_points
    )
    routes = nmap_(rules.name, "{count} route", "{count} routes", len(p.routes)).format(count=len(p.routes))
    counts = ", ".join(
        [points, pieces_counted(rules, p.trains), cards_counted(p.cards), tickets_counted(rules, p.tickets), routes]
    )
    return f"{name}{tag}: {counts}{extra}"


def status_text(info: GameInfo, view: PublicView, rules: Rules, clock: Sequence[str] = ()) -> str:
    """`/ttr status`: `clock` are the clock's lines (bot/present/clock.py: status_lines)."""
    lines = [
        _("**{title} game #{id}** · {status}").format(
            title=map_title_of(info.title), id=info.id, status=status_word(view.status)
        )
    ]
    table = view.table
    if table is None:
        lines.append(lobby_text(info))
        return clip("\n".join(lines))
    lines.extend(player_line(info, rules, p) for p in table.players)
    face_up = ", ".join(card_name(rules, c) if c else _("(empty)") for c in table.face_up)
    lines.append(
        _("Face up: {cards}. Deck: {deck}, discard pile: {discard}.").format(
            cards=face_up, deck=cards_counted(table.deck), discard=table.discard
        )
    )
    lines.append(
        _("{Tickets} left: {count}.").format(Tickets=tickets_plural(rules).capitalize(), count=table.ticket_deck)
    )
    to_move = table.to_move
    if table.finished:
        lines.append(stalemate_text() if table.stalemate else _("The game is over."))
        if table.scores is not None:
            lines.extend(breakdown_lines(load_board(info.map), table.scores))
    elif table.phase is Phase.SETUP_KEEP:
        waiting = names_and([shown(seat_name(info, w.player)) for w in table.waiting_for])
        lines.append(
            _("Choosing starting {tickets}: {players}.").format(tickets=tickets_plural(rules), players=waiting)
        )
    elif to_move is not None:
        lines.append(
            _("To move: {player} ({must}).").format(
                player=player_label(info, to_move.player), must=must_text(rules, to_move.must)
            )
        )
    if table.final_round is not None:
        left = table.final_round.turns_left
        lines.append(
            ngettext("Final round: {count} turn left.", "Final round: {count} turns left.", left).format(count=left)
        )
    if not table.finished:
        lines.extend(clock)
    return clip("\n".join(lines))


def final_tickets_text(info: GameInfo, rules: Rules, scores: FinalScores) -> str:
    """`/ttr hand` after the end: every player's tickets, done and failed (public once the game is over)."""
    lines = [
        _("**{title} game #{id} is over.** Every player's {tickets}:").format(
            title=map_title_of(info.title), id=info.id, tickets=tickets_plural(rules)
        )
    ]
    for r in scores.scores:
        lines.append(
            _("**{player}**: {done} done, {failed} failed, {points}").format(
                player=shown(seat_name(info, r.player)),
                done=r.completed,
                failed=r.failed,
                points=f"{r.ticket_points:+d}",
            )
        )
        lines.extend(ticket_result_lines(r, rules))
    return clip("\n".join(lines))


def player_rows(info: GameInfo, table: TableView) -> str:
    """The players' rows of the table message, one a player in seat order, the player to move marked."""
    rules = load_board(info.map).rules
    moving = table.to_move.player if table.to_move is not None else None
    marks = {True: "\N{BLACK RIGHT-POINTING TRIANGLE} ", False: ""}
    return "\n".join(marks[p.player == moving] + player_line(info, rules, p, member=False) for p in table.players)
