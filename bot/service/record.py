"""The game record of a stored game (docs/game-record.md), built from the move log itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.service.kinds import AuditAction
from bot.service.models import GameInfo
from bot.store import AuditRow, MoveRow, StoredGame
from engine import Game
from engine.record import FORMAT, PASS_ROUND_ENDS
from engine.seat_changes import ChangeError, SeatChange, read_changes
from engine.verify import commitment, committed_setup, game_setup, members_at_start, setup_commitment, verification_of
from maps import load_board

# audit actions that change who plays a seat, noted as seat changes in the record
SEAT_ACTIONS = (AuditAction.REPLACE, AuditAction.AUTOPILOT)
UNDO = AuditAction.UNDO  # takes moves back: a seat change made after them then comes after the moves that stay


# Audit entries of moderators reading a game: in the log, not in the record.
READ_ACTIONS = frozenset({"read_log", "export"})


def seat_changes(audit: Sequence[AuditRow], moves: Sequence[MoveRow] = ()) -> list[dict[str, Any]]:
    """The audit's seat changes as the record's `conductor.seat_changes` lists them, each with `after_moves`: how
    many of the game's live `moves` had been made when it came (engine/seat_changes.py).

    A change notes that number when it is made; an undo later taking back moves made before it moves it back to
    where the moves now stop. A change noted before changes were chained (no `after_moves`) is placed after the
    live moves made before it.
    """
    changes: list[dict[str, Any]] = []
    for a in audit:
        if a.action == UNDO:
            keep = a.details.get("to")
            for change in changes:
                if type(keep) is int and change["after_moves"] > keep:
                    change["after_moves"] = keep
        elif a.action in SEAT_ACTIONS:
            after = a.details.get("after_moves")
            if type(after) is not int:
                after = sum(1 for m in moves if m.created_at <= a.created_at)
            entry = {"at": a.created_at.isoformat(), "moderator_user_id": a.moderator_user_id, "action": a.action}
            changes.append(entry | a.details | {"after_moves": after})
    return changes


def chain_changes(stored: StoredGame, audit: Sequence[AuditRow] | None = None) -> tuple[SeatChange, ...]:
    """The game's seat changes as its hash chain holds them (`audit`: the game's audit, else the entries read with
    the game); ValueError if one cannot be chained (ill-formed data in the store)."""
    changes = seat_changes(stored.seat_audit if audit is None else audit, stored.moves)
    return tuple(read_changes(changes, len(stored.seats), len(stored.moves)))


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
    changes = seat_changes(audit, stored.moves)
    players = doc["players"]
    members = members_at_start([s.user_id for s in stored.seats], changes)
    deal = commitment(row.seed, doc["decks"]["cards"], doc["decks"]["tickets"])
    setup = committed_setup(row.map, doc.get("options", {}), players, members, deal)
    try:
        chained = read_changes(changes, len(players), len(doc["moves"]))
    except ChangeError:
        chained = []  # ill-formed data in the store: exported all the same, and `verify` says what it cannot read
    verification = verification_of(
        row.seed, doc["decks"]["cards"], doc["decks"]["tickets"], doc["moves"], setup, chained
    )
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
