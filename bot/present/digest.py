"""The catch-up digest and the "your turn" notice in words: what changed since a player's own last turn."""

from __future__ import annotations

from bot.present.clock import time_left
from bot.present.escape import shown
from bot.present.events import public_text
from bot.present.i18n import _, ngettext
from bot.present.names import map_title_of
from bot.present.suggestions import route_label
from bot.present.words import card_name
from bot.service import Digest, GameInfo, PublicEvent, TurnNotice
from maps import load_board

MAX_TEXT = 1800  # a Discord message holds 2000 characters


def digest_move(info: GameInfo, event: PublicEvent) -> str:
    """One public event since the player's last turn, marked where the autopilot moved."""
    text = public_text(info, event)
    return _("{move} (autopilot)").format(move=text) if event.by_autopilot and event.player else text


def digest_lines(info: GameInfo, digest: Digest) -> list[str]:
    """What changed, a line each: the moves (the latest if they are too many), routes lost, the face-up row."""
    lines = []
    if digest.moves:
        lines.append(_("Since your last turn:"))
        body = [f"- {digest_move(info, e)}" for e in digest.moves]
        budget = MAX_TEXT - len(_head(info)) - 400
        kept: list[str] = []
        for line in reversed(body):  # the latest matter most
            if sum(len(k) + 1 for k in kept) + len(line) > budget:
                earlier = len(body) - len(kept)
                kept.append(
                    ngettext("- ... and {count} earlier", "- ... and {count} earlier", earlier).format(count=earlier)
                )
                break
            kept.append(line)
        lines.extend(reversed(kept))
    else:
        lines.append(_("Nothing has happened since your last turn."))
    board = load_board(info.map)
    for lost in digest.lost_routes:
        lines.append(
            _("{player} took {route}, on your way for {tickets}: time for another path.").format(
                player=shown(lost.claimed_by),
                route=route_label(board.routes[lost.route]),
                tickets=", ".join(lost.tickets),
            )
        )
    if digest.face_up:
        rules = board.rules
        lines.append(_("Face-up now: {cards}.").format(cards=", ".join(card_name(rules, c) for c in digest.face_up)))
    return lines


def _head(info: GameInfo) -> str:
    return _("Your turn in game #{game_id} ({title}).").format(game_id=info.id, title=map_title_of(info.title))


def digest_text(info: GameInfo, digest: Digest) -> str:
    return "\n".join([_head(info), *digest_lines(info, digest)])


def turn_notice_text(info: GameInfo, notice: TurnNotice) -> str:
    """A member's turn has come: the digest, and the time left if the game has a clock."""
    text = digest_text(info, notice.digest)
    if notice.deadline is not None:
        text += "\n" + _("Time left: {time} (reserve included).").format(time=time_left(notice.deadline, notice.at))
    return text
