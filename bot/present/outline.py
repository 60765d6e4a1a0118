"""Moves told without their secrets, and what `/ttrmod undo` would take back (bot/service/outline.py)."""

from __future__ import annotations

from bot.present.escape import shown
from bot.present.words import card_name, plural
from bot.service import MoveKind, MoveOutline, UndoneOutline, UndoPreview
from maps import Rules


def move_sentence(rules: Rules, move: MoveOutline) -> str:
    """A move in the past tense, for people: "alice drew a blind card", "bob kept 2 tickets"."""
    who = shown(move.player)
    match move.kind:
        case MoveKind.DRAW_BLIND:
            return f"{who} drew a blind card"
        case MoveKind.DRAW_FACE_UP:
            return f"{who} took a face-up {card_name(rules, move.card or '?')}"
        case MoveKind.DRAW_TICKETS:
            return f"{who} drew tickets"
        case MoveKind.KEEP:
            return f"{who} kept {plural(move.kept, 'ticket')}"
        case MoveKind.CLAIM:
            return f"{who} claimed {' - '.join(shown(p) for p in move.places)}"
        case MoveKind.TUNNEL:
            return f"{who} gave up a tunnel" if move.gave_up else f"{who} paid for a tunnel"
        case MoveKind.PLACE:
            return f"{who} placed a tourist stack at {' '.join(shown(p) for p in move.places)}"
    return f"{who} passed"


def revealed_sentence(undone: UndoneOutline) -> str | None:
    """What an undone move showed that stays known ("bob has seen it"), or None if it showed nothing hidden."""
    who = shown(undone.move.player)
    seen = []
    if undone.cards_seen == 1:
        seen.append(f"{who} has seen it")
    elif undone.cards_seen:
        seen.append(f"{who} has seen {plural(undone.cards_seen, 'card')} from the deck")
    if undone.tickets_seen:
        seen.append(f"{who} has seen {plural(undone.tickets_seen, 'ticket')}")
    if undone.shown_to_all:
        seen.append(f"everyone has seen {plural(undone.shown_to_all, 'card')} from the deck")
    return "; ".join(seen) if seen else None


def undone_line(rules: Rules, undone: UndoneOutline) -> str:
    """One move of an undo's preview: "bob drew a blind card: bob has seen it"."""
    move = undone.move
    if move.kind is MoveKind.DRAW_TICKETS and undone.tickets_seen:
        text = f"{shown(move.player)} drew {plural(undone.tickets_seen, 'ticket')}"
    else:
        text = move_sentence(rules, move)
    revealed = revealed_sentence(undone)
    return f"{text}: {revealed}" if revealed else text


def undo_preview_text(rules: Rules, preview: UndoPreview, limit: int = 1900) -> str:
    """The preview of `/ttrmod undo`, asking to confirm; within `limit` characters.

    When every move does not fit, the moves that showed something hidden are listed first.
    """
    first = preview.moves_before - preview.count  # numbered as the log numbers moves
    numbered = [
        (f"move {n}: {undone_line(rules, u)}", revealed_sentence(u) is not None)
        for n, u in enumerate(preview.moves, first)
    ]
    hidden = any(shows for _, shows in numbered)
    head = f"Take back the last {plural(preview.count, 'move')} of game #{preview.game_id}?"
    tail = (
        "Taking these moves back does not make anyone forget what they saw: the same cards or tickets come again."
        if hidden
        else "None of these moves showed a hidden card or ticket."
    )
    lines = [line for line, _ in numbered]
    text = "\n".join([head, *lines, tail])
    if len(text) <= limit:
        return text
    shown_lines = [line for line, shows in numbered if shows]
    budget = limit - len(head) - len(tail) - 80
    kept: list[str] = []
    for line in shown_lines:
        if sum(len(k) + 1 for k in kept) + len(line) + 1 > budget:
            break
        kept.append(line)
    rest = len(lines) - len(kept)
    return "\n".join([head, *kept, f"... and {plural(rest, 'more move')}.", tail])
