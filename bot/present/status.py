"""A game's state in words: `/ttr status` for everyone, a player's own hand and tickets, a ticket choice."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.cards import format_cards
from bot.present.escape import shown
from bot.present.layout import clip
from bot.present.lobby import lobby_text
from bot.present.seats import mention, player_label
from bot.present.stage import breakdown_lines, must_text, ticket_result_lines
from bot.present.words import card_name, plural
from bot.service import GameInfo, PrivateView, PublicView
from bot.service.scores import FinalScores, TicketLabel
from engine import Phase
from maps import Rules, load_board


def hand_text(rules: Rules, view: PrivateView) -> str:
    """A player's own cards and tickets (done or not), from the service's private view."""
    ticket = rules.ticket_name
    hand = view.hand
    lines = [
        f"**Your cards** ({sum(hand.values())}): {format_cards(rules, hand)}",
        f"**{rules.piece_name.capitalize()} left:** {view.trains}",
    ]
    if view.tickets:
        lines.append(f"**Your {ticket}s:**")
        for t in view.tickets:
            if t.done:
                lines.append(f"\N{WHITE HEAVY CHECK MARK} {t.label}: done, {t.points:+d}")
            else:
                lines.append(f"\N{WHITE LARGE SQUARE} {t.label}: not yet, {t.points:+d} if the game ended now")
    else:
        lines.append(f"**Your {ticket}s:** none yet")
    if view.offered:
        numbered = "; ".join(f"{i}. {t.label}" for i, t in enumerate(view.offered, start=1))
        lines.append(f"**To choose** (keep at least {view.keep_minimum}): {numbered}")
    if view.your_move and view.must:
        lines.append(f"**Your move:** {must_text(rules, view.must)}.")
    return clip("\n".join(lines))


def offered_text(rules: Rules, offered: Sequence[TicketLabel], least: int) -> str:
    numbered = "\n".join(f"{i}. {t.label}" for i, t in enumerate(offered, start=1))
    return (
        f"Choose the {rules.ticket_name}s to keep (at least {least}) in the menu, "
        f"or with `/ttr keep` and their numbers:\n{numbered}"
    )


def status_text(info: GameInfo, view: PublicView, rules: Rules, clock: Sequence[str] = ()) -> str:
    """`/ttr status`: `clock` are the clock's lines (bot/present/clock.py: status_lines)."""
    lines = [f"**{info.title} game #{info.id}** · {view.status}"]
    table = view.table
    if table is None:
        lines.append(lobby_text(info))
        return clip("\n".join(lines))
    for p in table.players:
        extra = ""
        if p.merchandise is not None:
            extra += f", {p.merchandise} merchandise"
        if p.souvenirs is not None:
            extra += f", {plural(len(p.souvenirs), 'souvenir')}"
        if p.longest is not None:
            extra += f", longest path {p.longest}"
        name = player_label(info, p.player)
        member = f" ({mention(p.user_id)})" if p.user_id is not None and p.user_id > 0 else ""
        lines.append(
            f"{name}{member}: {plural(p.route_points, 'route point')}, "
            f"{plural(p.trains, rules.piece_name)}, {plural(p.cards, 'card')}, "
            f"{plural(p.tickets, rules.ticket_name)}, {plural(len(p.routes), 'route')}{extra}"
        )
    face_up = ", ".join(card_name(rules, c) if c else "(empty)" for c in table.face_up)
    lines.append(f"Face up: {face_up}. Deck: {plural(table.deck, 'card')}, discard pile: {table.discard}.")
    lines.append(f"{rules.ticket_name.capitalize()}s left: {table.ticket_deck}.")
    to_move = table.to_move
    if table.finished:
        lines.append("The game is over.")
        if table.scores is not None:
            lines.extend(breakdown_lines(load_board(info.map), table.scores))
    elif table.phase is Phase.SETUP_KEEP:
        waiting = ", ".join(shown(w.player) for w in table.waiting_for)
        lines.append(f"Choosing starting {rules.ticket_name}s: {waiting}.")
    elif to_move is not None:
        lines.append(f"To move: {player_label(info, to_move.player)} ({must_text(rules, to_move.must)}).")
    if table.final_round is not None:
        lines.append(f"Final round: {plural(table.final_round.turns_left, 'turn')} left.")
    if not table.finished:
        lines.extend(clock)
    return clip("\n".join(lines))


def final_tickets_text(info: GameInfo, rules: Rules, scores: FinalScores) -> str:
    """`/ttr hand` after the end: every player's tickets, done and failed (public once the game is over)."""
    lines = [f"**{info.title} game #{info.id} is over.** Every player's {rules.ticket_name}s:"]
    for r in scores.scores:
        lines.append(f"**{shown(r.player)}**: {r.completed} done, {r.failed} failed, {r.ticket_points:+d}")
        lines.extend(ticket_result_lines(r))
    return clip("\n".join(lines))
