"""Moves told without their secrets, and what `/ttrmod undo` would take back (bot/service/outline.py)."""

from __future__ import annotations

from bot.present.escape import shown
from bot.present.i18n import _, ngettext
from bot.present.words import card_name, cards_counted
from bot.service import MoveKind, MoveOutline, UndoneOutline, UndoPreview
from maps import Rules


def move_sentence(rules: Rules, move: MoveOutline) -> str:
    """A move in the past tense, for people: "alice drew a blind card", "bob kept 2 tickets"."""
    who = shown(move.player)
    match move.kind:
        case MoveKind.DRAW_BLIND:
            return _("{who} drew a blind card").format(who=who)
        case MoveKind.DRAW_FACE_UP:
            return _("{who} took a face-up {card}").format(who=who, card=card_name(rules, move.card or "?"))
        case MoveKind.DRAW_TICKETS:
            return _("{who} drew tickets").format(who=who)
        case MoveKind.KEEP:
            return _("{who} kept {tickets}").format(who=who, tickets=_tickets(move.kept))
        case MoveKind.CLAIM:
            return _("{who} claimed {route}").format(who=who, route=" - ".join(shown(p) for p in move.places))
        case MoveKind.TUNNEL:
            if move.gave_up:
                return _("{who} gave up a tunnel").format(who=who)
            return _("{who} paid for a tunnel").format(who=who)
        case MoveKind.PLACE:
            return _("{who} placed a tourist stack at {place}").format(
                who=who, place=" ".join(shown(p) for p in move.places)
            )
    return _("{who} passed").format(who=who)


def _tickets(count: int) -> str:
    """ "1 ticket", "2 tickets" (the moderators' words, the same on every map)."""
    return ngettext("{count} ticket", "{count} tickets", count).format(count=count)


def revealed_sentence(undone: UndoneOutline) -> str | None:
    """What an undone move showed that stays known ("bob has seen it"), or None if it showed nothing hidden."""
    who = shown(undone.move.player)
    seen = []
    if undone.cards_seen == 1:
        seen.append(_("{who} has seen it").format(who=who))
    elif undone.cards_seen:
        seen.append(_("{who} has seen {cards} from the deck").format(who=who, cards=cards_counted(undone.cards_seen)))
    if undone.tickets_seen:
        seen.append(_("{who} has seen {tickets}").format(who=who, tickets=_tickets(undone.tickets_seen)))
    if undone.shown_to_all:
        seen.append(_("everyone has seen {cards} from the deck").format(cards=cards_counted(undone.shown_to_all)))
    return "; ".join(seen) if seen else None


def undone_line(rules: Rules, undone: UndoneOutline) -> str:
    """One move of an undo's preview: "bob drew a blind card: bob has seen it"."""
    move = undone.move
    if move.kind is MoveKind.DRAW_TICKETS and undone.tickets_seen:
        text = _("{who} drew {tickets}").format(who=shown(move.player), tickets=_tickets(undone.tickets_seen))
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
        (_("move {number}: {move}").format(number=n, move=undone_line(rules, u)), revealed_sentence(u) is not None)
        for n, u in enumerate(preview.moves, first)
    ]
    hidden = any(shows for _, shows in numbered)
    head = ngettext(
        "Take back the last {count} move of game #{id}?",
        "Take back the last {count} moves of game #{id}?",
        preview.count,
    ).format(count=preview.count, id=preview.game_id)
    tail = (
        _("Taking these moves back does not make anyone forget what they saw: the same cards or tickets come again.")
        if hidden
        else _("None of these moves showed a hidden card or ticket.")
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
    more = ngettext("... and {count} more move.", "... and {count} more moves.", rest).format(count=rest)
    return "\n".join([head, *kept, more, tail])
