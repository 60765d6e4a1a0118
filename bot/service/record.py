"""The game record of a stored game (docs/game-record.md), built from the move log itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.service.models import GameInfo
from bot.store import AuditRow, StoredGame
from engine import Game
from engine.record import FORMAT, PASS_ROUND_ENDS
from engine.verify import commitment, committed_setup, game_setup, members_at_start, setup_commitment, verification_of
from maps import load_board

# audit actions that change who plays a seat, noted as seat changes in the record
SEAT_ACTIONS = ("replace", "autopilot")


# Audit entries of moderators reading a game: in the log, not in the record.
READ_ACTIONS = frozenset({"read_log", "export"})


def seat_changes(audit: Sequence[AuditRow]) -> list[dict[str, Any]]:
    """The audit's seat changes as the record's `conductor.seat_changes` lists them."""
    return [
        {"at": a.created_at.isoformat(), "moderator_user_id": a.moderator_user_id, "action": a.action} | a.details
        for a in audit
        if a.action in SEAT_ACTIONS
    ]


def posted_commitment(info: GameInfo, game: Game, audit: Sequence[AuditRow]) -> str:
    """The commitment the game published at its start: its setup with the members who held the seats then."""
    members = members_at_start([info.user_of(name) for name in game.names], seat_changes(audit))
    return setup_commitment(game_setup(game, members))


def record_of(stored: StoredGame, audit: Sequence[AuditRow] = ()) -> dict[str, Any]:
    """The record with explicit decks, plus who sat where under the `conductor` key (replayers ignore it).

    Built from the stored rows rather than a loaded game, so that a moderator
    can export even a game whose log no longer replays, to find out why.
    With the game's audit entries, `conductor` also notes every seat change
    (`seat_changes`) and every moderator action and timeout (`moderation`);
    the moves are the live ones, without any a moderator took back.
    """
    row = stored.game
    if row.seed is None or row.cards is None or row.tickets is None:
        raise ValueError(f"game #{row.id} has not started; it has no record")
    board = load_board(row.map)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "map": row.map,
        "players": [s.player for s in stored.seats],
        "seed": row.seed,
    }
    if row.options.get("trains") is not None:
        doc["options"] = {"trains": row.options["trains"]}
    doc[PASS_ROUND_ENDS] = True  # every game the bot plays has the rule: the record says so (replayers may ignore it)
    doc["decks"] = {"cards": list(row.cards), "tickets": [board.tickets[t].ref() for t in row.tickets]}
    doc["moves"] = [m.move for m in stored.moves]
    changes = seat_changes(audit)
    players = doc["players"]
    members = members_at_start([s.user_id for s in stored.seats], changes)
    deal = commitment(row.seed, doc["decks"]["cards"], doc["decks"]["tickets"])
    setup = committed_setup(row.map, doc.get("options", {}), players, members, deal)
    verification = verification_of(row.seed, doc["decks"]["cards"], doc["decks"]["tickets"], doc["moves"], setup)
    doc["conductor"] = {
        "game_id": row.id,
        "guild_id": row.guild_id,
        "channel_id": row.channel_id,
        "status": row.status.value,
        "seats": [{"player": s.player, "user_id": s.user_id, "display_name": s.display_name} for s in stored.seats],
        "verification": verification,
    }
    if audit:
        doc["conductor"]["seat_changes"] = changes
        doc["conductor"]["moderation"] = [
            {
                "at": a.created_at.isoformat(),
                "moderator_user_id": a.moderator_user_id,
                "action": a.action,
                "details": a.details,
                "reason": a.reason,
            }
            for a in audit
            if a.action not in READ_ACTIONS  # reading a game changes nothing the record describes
        ]
    return doc
