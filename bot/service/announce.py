"""The engine's events of a move as announcements: public events for everyone, private ones for one member.

Public events carry the engine's public part only, so a secret (a card drawn
blind, a ticket kept) cannot reach the channel.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.service.events import (
    CardDrawn,
    Dealt,
    PrivateData,
    PrivateEvent,
    PublicEvent,
    TicketsKept,
    TicketsOffered,
)
from bot.service.kinds import Actor, EventKind
from bot.service.models import GameInfo, is_bot
from bot.service.scores import final_scores, ticket_labels
from engine import Event, Game

log = logging.getLogger(__name__)


def public_events(info: GameInfo, game: Game, events: Sequence[Event], actor: Actor) -> list[PublicEvent]:
    """The public side of one move's events (`game` as the move left it); the final scores if it ended the game."""
    public = [PublicEvent(EventKind(e.kind), dict(e.public), e.player, info.user_of(e.player), actor) for e in events]
    if game.finished:
        public.append(PublicEvent(EventKind.FINAL_SCORES, final_scores(info, game, reveal_seed=True)))
    return public


def private_events(info: GameInfo, game: Game, events: Sequence[Event]) -> list[PrivateEvent]:
    """What the member who moved alone may be told of their move's events (nothing for an autopilot player)."""
    out = []
    for e in events:
        user = info.user_of(e.player)
        if user is None or is_bot(user) or not e.private:
            continue
        data = _private(game, e)
        if data is None:
            log.warning("game #%d: no private announcement for the engine's %r event", info.id, e.kind)
            continue
        out.append(PrivateEvent(user, EventKind(e.kind), data))
    return out


def _private(game: Game, e: Event) -> PrivateData | None:
    board = game.board
    if e.kind == EventKind.DRAW_DECK:
        return CardDrawn(str(e.private["card"]))
    if e.kind == EventKind.DRAW_TICKETS:
        offered = tuple(e.private["offered"])
        least = game.keep_minimum(e.player) if e.player else 0
        return TicketsOffered(offered, ticket_labels(board, offered), least)
    if e.kind == EventKind.KEEP:
        kept = tuple(e.private["kept"])
        return TicketsKept(kept, ticket_labels(board, kept))
    return None


def dealt(info: GameInfo, game: Game) -> list[PrivateEvent]:
    """Each member's starting hand and ticket offer, for them alone."""
    out = []
    for p in game.state.players:
        user = info.user_of(p.name)
        if user is None or is_bot(user):
            continue
        hand = {card: n for card, n in sorted(p.hand.items()) if n > 0}
        offered = tuple(p.offered or [])
        data = Dealt(hand, offered, ticket_labels(game.board, offered), game.keep_minimum(p.name))
        out.append(PrivateEvent(user, EventKind.DEALT, data))
    return out
