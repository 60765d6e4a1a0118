"""A tournament's standings: as lines of a message and as the words of the standings image.

They are written in the server's language: the caller speaks it (`speaking`). Names in the lines are shown
escaped (bot/present/escape.py)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.escape import shown
from bot.present.i18n import _, ngettext, pgettext
from bot.present.layout import clip
from bot.present.tournament_words import participant_status_word, points
from bot.service.tournaments.models import StandingLine, TournamentInfo
from bot.store.tournament_rows import ParticipantStatus, TournamentStatus

MAX_STANDINGS = 40  # lines of standings in a message


def standing_line(line: StandingLine) -> str:
    text = _(
        "{rank}. **{player}**: place points {points} · game points {score} · tickets {tickets} · "
        "opponents' strength {strength}"
    ).format(
        rank=line.rank,
        player=shown(line.display_name),
        points=points(line.place_points),
        score=line.score,
        tickets=line.tickets,
        strength=points(line.opponents_strength),
    )
    if line.status is not ParticipantStatus.ACTIVE:
        text += f" ({participant_status_word(line.status)})"
    return text


def standings_lines(info: TournamentInfo, lines: Sequence[StandingLine]) -> list[str]:
    """The standings: rank, name, place points, then the tie-breakers (game points, tickets, opponents)."""
    if info.status is TournamentStatus.FINISHED:
        head = _("Final standings of **{name}**:").format(name=shown(info.name))
    else:
        head = _("Standings of **{name}**:").format(name=shown(info.name))
    if not lines:
        return [head, _("No games played yet.")]
    out = [head, *(standing_line(x) for x in lines[:MAX_STANDINGS])]
    more = len(lines) - MAX_STANDINGS
    if more > 0:
        out.append(ngettext("and {count} more", "and {count} more", more).format(count=more))
    return out


def standings_table(info: TournamentInfo, lines: Sequence[StandingLine]) -> tuple[str, list[str], list[list[str]], str]:
    """The standings as a table image's words (render/standings.py): heading, column headings, rows (the first
    MAX_STANDINGS), and the image's alt text."""
    if info.status is TournamentStatus.FINISHED:
        heading = _("Final standings of {name}").format(name=info.name)
    else:
        heading = _("Standings of {name}").format(name=info.name)
    columns = [
        pgettext("standings column", "Rank"),
        pgettext("standings column", "Player"),
        pgettext("standings column", "Place points"),
        pgettext("standings column", "Game points"),
        pgettext("standings column", "Tickets"),
        pgettext("standings column", "Opponents"),
        pgettext("standings column", "Games"),
        pgettext("standings column", "Wins"),
    ]
    rows = [
        [
            f"{x.rank}.",
            x.display_name
            if x.status is ParticipantStatus.ACTIVE
            else f"{x.display_name} ({participant_status_word(x.status)})",
            points(x.place_points),
            str(x.score),
            str(x.tickets),
            points(x.opponents_strength),
            str(x.games),
            str(x.wins),
        ]
        for x in lines[:MAX_STANDINGS]
    ]
    told = "; ".join(
        _("{rank}. {player}: place points {points}").format(
            rank=x.rank, player=x.display_name, points=points(x.place_points)
        )
        for x in lines[:MAX_STANDINGS]
    )
    return heading, columns, rows, clip(f"{heading}: {told}", 1000)
