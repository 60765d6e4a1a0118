"""What the autopilot did for a member, for that member alone (by DM): its moves, the card drawn, the tickets kept."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.events import private_text, public_text
from bot.present.i18n import _
from bot.present.layout import clip
from bot.present.words import map_title_of
from bot.service import EventKind, GameInfo, PlayedFor

# the tickets offered are told by what was kept; the final scores by the game's own end message
_UNTOLD = frozenset({EventKind.DRAW_TICKETS, EventKind.FINAL_SCORES, EventKind.GAME_OVER})


def played_for_lines(info: GameInfo, moves: Sequence[PlayedFor]) -> list[str]:
    """One line per event of the autopilot's moves for the member, the secret ones in "you" words."""
    lines: list[str] = []
    for move in moves:
        lines += [f"- {public_text(info, e)}" for e in move.public if e.kind not in _UNTOLD]
        lines += [f"- {private_text(info, e)}" for e in move.private if e.kind not in _UNTOLD]
    return lines


def played_for_dm(info: GameInfo, url: str, moves: Sequence[PlayedFor]) -> str:
    """The DM: why the autopilot played, what it did, and where the game is."""
    if any(m.timeout for m in moves):
        head = _(
            "In your {title} game #{game_id} in <#{channel_id}>, your time ran out, so the autopilot played for you:"
        )
    else:
        head = _("In your {title} game #{game_id} in <#{channel_id}>, the autopilot plays your seat:")
    head = head.format(title=map_title_of(info.title), game_id=info.id, channel_id=info.channel_id)
    return clip("\n".join([head, *played_for_lines(info, moves), url]))
