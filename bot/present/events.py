"""Every event the service announces, in words: one sentence for the channel, or one for the member alone."""

from __future__ import annotations

from collections.abc import Mapping

from bot.present.clock import outage_text
from bot.present.lobby import cancelled_text, created_text, host_changed_text, joined_text, left_text, started_text
from bot.present.moderation import (
    autopilot_text,
    ended_text,
    extended_text,
    paused_text,
    reopened_text,
    replaced_text,
    resumed_text,
    seat_given_text,
    seat_taken_text,
    timeout_text,
    undone_text,
)
from bot.present.moves import (
    card_drawn_text,
    dealt_text,
    final_scores_text,
    kept_tickets_text,
    move_text,
    offered_tickets_text,
)
from bot.service import FinalScores, GameInfo, PrivateEvent, PublicEvent
from bot.service.events import (
    AutopilotSet,
    Cancelled,
    CardDrawn,
    Created,
    Dealt,
    Ended,
    Extended,
    HostChanged,
    Joined,
    Left,
    Outage,
    Paused,
    Reopened,
    Replaced,
    Resumed,
    SeatGiven,
    SeatTaken,
    Started,
    TicketsKept,
    TicketsOffered,
    Timeout,
    Undone,
)
from maps import load_board


def public_text(info: GameInfo, event: PublicEvent) -> str:
    """The sentence for everyone about `event` of the game `info`."""
    match event.data:
        case Created() as created:
            return created_text(created)
        case Joined() as joined:
            return joined_text(joined)
        case Left() as left:
            return left_text(left)
        case HostChanged() as changed:
            return host_changed_text(changed)
        case Cancelled() as cancelled:
            return cancelled_text(cancelled)
        case Started() as started:
            return started_text(info, started)
        case FinalScores() as scores:
            return final_scores_text(scores)
        case Timeout() as timeout:
            return timeout_text(timeout)
        case Paused() as paused:
            return paused_text(paused)
        case Resumed() as resumed:
            return resumed_text(resumed)
        case Outage() as outage:
            return outage_text(outage)
        case Extended() as extended:
            return extended_text(extended)
        case Replaced() as replaced:
            return replaced_text(replaced)
        case AutopilotSet() as change:
            return autopilot_text(change)
        case Undone() as undone:
            return undone_text(undone)
        case Ended() as ended:
            return ended_text(ended)
        case Reopened() as reopened:
            return reopened_text(reopened)
        case Mapping() as facts:
            return move_text(load_board(info.map), info, event.kind, event.player, facts)
    raise TypeError(f"no words for a {event.kind} event")


def private_text(info: GameInfo, event: PrivateEvent) -> str:
    """The sentence for the member alone about `event` of the game `info`."""
    match event.data:
        case Dealt() as deal:
            return dealt_text(load_board(info.map), deal)
        case CardDrawn() as drawn:
            return card_drawn_text(load_board(info.map), drawn)
        case TicketsOffered() as offer:
            return offered_tickets_text(offer, load_board(info.map))
        case TicketsKept() as kept:
            return kept_tickets_text(kept, load_board(info.map))
        case SeatGiven() as given:
            return seat_given_text(info, given)
        case SeatTaken() as taken:
            return seat_taken_text(info, taken)
    raise TypeError(f"no words for a private {event.kind} event")
