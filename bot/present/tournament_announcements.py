"""The tournament's public announcements: a table's first message in its thread, a round's tables, the tables
past a round's deadline, a table's result, a moderator's action.

They are written in the server's language: the caller speaks it (`speaking`). Members' names are shown
escaped (bot/present/escape.py); mentions are written only where the message says whom it pings (a table's
first message: its players)."""

from __future__ import annotations

from bot.present.escape import shown
from bot.present.i18n import _, ngettext
from bot.present.layout import clip
from bot.present.tournament_words import map_title, points, round_title
from bot.service.tournaments.models import (
    OverdueTables,
    RoundStarted,
    Table,
    TableFinishInfo,
    TablePlan,
    TableResult,
    TournamentInfo,
)


def thread_welcome(plan: TablePlan) -> str:
    """A table's first message in its thread: the players (mentioned), the map; their game follows."""
    players = ", ".join(f"<@{u}>" if u > 0 else shown(n) for u, n in zip(plan.seats, plan.names, strict=True))
    return clip(
        _(
            "**{name}**, {round}, table {table} on {map}: {players}. Your game is played here, in seat order "
            "as listed. Good luck!"
        ).format(
            name=shown(plan.tournament_name),
            round=round_title(plan.round, final=plan.final),
            table=plan.table_no,
            map=map_title(plan.map),
            players=players,
        )
    )


def _table_line(table: Table) -> str:
    """A table, its players and a link to its thread."""
    names = ", ".join(shown(n) for n in table.names)
    where = f"<#{table.channel_id}>" if table.channel_id is not None else ""
    return _("Table {table}: {players} {thread}").format(table=table.table_no, players=names, thread=where).rstrip()


def round_lines(started: RoundStarted) -> list[str]:
    """The announcement of a round's tables in the tournament's channel, with a link to each table's thread."""
    r = started.round
    info = started.tournament
    title = round_title(r.round, final=r.final)
    if started.repaired:
        head = _("**{name}**: {round} is paired again, on {map}.").format(
            name=shown(info.name), round=title, map=map_title(r.map)
        )
    else:
        head = _("**{name}**: {round} starts, on {map}.").format(
            name=shown(info.name), round=title, map=map_title(r.map)
        )
    lines = [head]
    lines += [_table_line(table) for table in r.tables]
    if started.not_checked_in:
        names = ", ".join(shown(p.display_name) for p in info.participants if p.user_id in started.not_checked_in)
        lines.append(_("Not checked in, so out of the tournament: {names}").format(names=names))
    if started.repeats:
        lines.append(
            ngettext(
                "{count} pair of players meets again (no pairing without it was found).",
                "{count} pairs of players meet again (no pairing without it was found).",
                started.repeats,
            ).format(count=started.repeats)
        )
    if r.deadline is not None:
        lines.append(_("The round ends <t:{time}:R>.").format(time=int(r.deadline.timestamp())))
    return lines


def overdue_lines(notice: OverdueTables) -> list[str]:
    """For the moderators (their log channel, else the tournament's): a round's deadline passed with these tables
    still playing, each with a link to its thread, and how to settle them."""
    info, r = notice.tournament, notice.round
    count = len(notice.tables)
    lines = [
        ngettext(
            "**{name}**: the deadline of {round} has passed, and {count} table is still playing:",
            "**{name}**: the deadline of {round} has passed, and {count} tables are still playing:",
            count,
        ).format(name=shown(info.name), round=round_title(r.round, final=r.final), count=count)
    ]
    lines += [_table_line(table) for table in notice.tables]
    lines.append(
        _(
            "A moderator settles each with `/ttrtour adjudicate round:{round} table:{table}` and `score` yes "
            "(scored as it stands) or no (the autopilot plays it out)."
        ).format(round=r.round, table=notice.tables[0].table_no if notice.tables else 1)
    )
    return lines


def _finish_line(finish: TableFinishInfo) -> str:
    return _("{place}. {player}: place points {points} (game points {score}, tickets done {tickets})").format(
        place=finish.place,
        player=shown(finish.display_name),
        points=points(finish.place_points),
        score=finish.score,
        tickets=finish.tickets_done,
    )


def table_result_lines(info: TournamentInfo, result: TableResult) -> list[str]:
    """A table's result in the tournament's channel (and whether the round or the tournament is over)."""
    r = next((x for x in info.rounds if x.round == result.round), None)
    title = round_title(result.round, final=r is not None and r.final)
    if not result.finishes:
        lines = [
            _("**{name}**, {round}, table {table}: its game was abandoned, so the table counts for nobody.").format(
                name=shown(info.name), round=title, table=result.table_no
            )
        ]
    else:
        lines = [
            _("**{name}**, {round}, table {table} is over:").format(
                name=shown(info.name), round=title, table=result.table_no
            )
        ]
        lines += [_finish_line(f) for f in sorted(result.finishes, key=lambda f: (f.place, f.display_name))]
    if result.tournament_finished:
        lines.append(_("That was the last game: **{name}** is over.").format(name=shown(info.name)))
    elif result.round_complete:
        lines.append(
            _("{round} is complete. A moderator starts the next one with `/ttrtour startround`.").format(
                round=round_title(result.round, final=r is not None and r.final, start=True)
            )
        )
    return lines


def moderator_line(action: str, info: TournamentInfo, *, player: str = "", new: str = "", reason: str = "") -> str:
    """A moderator's action on a tournament, as the tournament's channel is told (without the reason)."""
    name = shown(info.name)
    if action == "substitute":
        return _("{new} takes the place of {old} in **{name}**.").format(new=shown(new), old=shown(player), name=name)
    if action == "drop":
        return _("{player} is out of **{name}**.").format(player=shown(player), name=name)
    if action == "disqualify":
        return _("{player} is disqualified from **{name}**.").format(player=shown(player), name=name)
    if action == "reinstate":
        return _("{player} is back in **{name}**.").format(player=shown(player), name=name)
    return _("**{name}** is called off by a moderator.").format(name=name)
