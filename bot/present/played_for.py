"""What the autopilot did for a member, for that member alone (by DM): its moves, the card drawn, the tickets kept.

A few moves are told one line each; a long stretch (a seat the autopilot
played for many turns, a member away) is summed up: the cards drawn counted
by colour in one line, and every other move (claims, tickets kept) on its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from bot.present.cards import format_cards
from bot.present.events import private_text, public_text
from bot.present.i18n import _, ngettext
from bot.present.layout import clip
from bot.present.names import map_title_of
from bot.service import EventKind, GameInfo, PlayedFor
from bot.service.events import CardDrawn
from maps import load_board

# the tickets offered are told by what was kept; the final scores by the game's own end message
_UNTOLD = frozenset({EventKind.DRAW_TICKETS, EventKind.FINAL_SCORES, EventKind.GAME_OVER})


def played_for_lines(info: GameInfo, moves: Sequence[PlayedFor]) -> list[str]:
    """One line per event of the autopilot's moves for the member, the secret ones in "you" words."""
    lines: list[str] = []
    for move in moves:
        lines += [f"- {public_text(info, e)}" for e in move.public if e.kind not in _UNTOLD]
        lines += [f"- {private_text(info, e)}" for e in move.private if e.kind not in _UNTOLD]
    return lines


SUMMARY_FROM = 8  # from this many lines on, the cards drawn are counted in one line
_DRAWS = frozenset({EventKind.DRAW_DECK, EventKind.DRAW_FACE_UP})


def played_for_summary(info: GameInfo, moves: Sequence[PlayedFor]) -> list[str]:
    """The autopilot's moves summed up: the cards drawn (counted by colour), then each other move on its own."""
    drawn: Counter[str] = Counter()
    draws = 0
    lines: list[str] = []
    for move in moves:
        for e in move.public:
            if e.kind in _DRAWS:
                draws += 1
                facts = e.data
                if e.kind is EventKind.DRAW_FACE_UP and isinstance(facts, Mapping) and "card" in facts:
                    drawn[str(facts["card"])] += 1
            elif e.kind not in _UNTOLD:
                lines.append(f"- {public_text(info, e)}")
        for p in move.private:
            if isinstance(p.data, CardDrawn):
                drawn[p.data.card] += 1
            elif p.kind not in _UNTOLD:
                lines.append(f"- {private_text(info, p)}")
    if draws:
        head = ngettext("- You drew {count} card: {cards}.", "- You drew {count} cards: {cards}.", draws).format(
            count=draws, cards=format_cards(load_board(info.map).rules, drawn)
        )
        lines.insert(0, head)
    return lines


def played_for_dm(info: GameInfo, url: str, moves: Sequence[PlayedFor], *, away: bool = False) -> str:
    """The DM: why the autopilot played, what it did, and where the game is. `away`: the summary a member gets
    when back from being away (always summed up)."""
    if away:
        head = _(
            "While you were away, the autopilot played for you in your {title} game #{game_id} in <#{channel_id}>:"
        )
        head = head.format(title=info.title, game_id=info.id, channel_id=info.channel_id)
        return clip("\n".join([head, *played_for_summary(info, moves), url]))
    if any(m.timeout for m in moves):
        head = _(
            "In your {title} game #{game_id} in <#{channel_id}>, your time ran out, so the autopilot played for you:"
        )
    else:
        head = _("In your {title} game #{game_id} in <#{channel_id}>, the autopilot plays your seat:")
    head = head.format(title=map_title_of(info.title), game_id=info.id, channel_id=info.channel_id)
    lines = played_for_lines(info, moves)
    if len(lines) >= SUMMARY_FROM:
        lines = played_for_summary(info, moves)
    return clip("\n".join([head, *lines, url]))
