"""Every sentence of the tournaments (`/ttrtour`): the tournament's message, answers, announcements, standings.

Public texts (the tournament's message, the announcements of rounds, results and standings, a table's thread)
are written in the server's language, answers in the member's: the caller speaks the language
(`speaking`). Members' names are shown escaped (bot/present/escape.py); mentions are written only where
the message says whom it pings (a table's first message: its players).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

from bot.present.escape import shown
from bot.present.i18n import _, current_language, ngettext, pgettext
from bot.present.layout import clip
from bot.present.names import map_title_of
from bot.present.suggestions import duration_label
from bot.service.clock import ClockSettings
from bot.service.kinds import Language
from bot.service.tournaments.models import (
    OverdueTables,
    RoundStarted,
    StandingLine,
    Table,
    TableFinishInfo,
    TablePlan,
    TableResult,
    TournamentInfo,
    TournamentSettings,
)
from bot.store.tournament_rows import ParticipantStatus, TableStatus, TournamentStatus
from maps import load_board

MAX_NAMES = 60  # names listed in a tournament's message; the rest counted
MAX_STANDINGS = 40  # lines of standings in a message


# ----- words ---------------------------------------------------------------------------------------------


def join_label() -> str:
    return pgettext("button", "Join")


def leave_label() -> str:
    return pgettext("button", "Leave")


def checkin_label() -> str:
    return pgettext("button", "Check in")


def tournament_status_word(status: TournamentStatus) -> str:
    words = {
        TournamentStatus.REGISTRATION: lambda: pgettext("tournament status", "registration"),
        TournamentStatus.CHECKIN: lambda: pgettext("tournament status", "check-in"),
        TournamentStatus.RUNNING: lambda: pgettext("tournament status", "running"),
        TournamentStatus.FINISHED: lambda: pgettext("tournament status", "finished"),
        TournamentStatus.CANCELLED: lambda: pgettext("tournament status", "cancelled"),
    }
    return words[status]()


def participant_status_word(status: ParticipantStatus) -> str:
    words = {
        ParticipantStatus.REGISTERED: lambda: pgettext("participant status", "registered"),
        ParticipantStatus.WAITLISTED: lambda: pgettext("participant status", "on the waiting list"),
        ParticipantStatus.CHECKED_IN: lambda: pgettext("participant status", "checked in"),
        ParticipantStatus.ACTIVE: lambda: pgettext("participant status", "playing"),
        ParticipantStatus.DROPPED: lambda: pgettext("participant status", "dropped"),
        ParticipantStatus.DISQUALIFIED: lambda: pgettext("participant status", "disqualified"),
    }
    return words[status]()


def table_status_word(status: TableStatus) -> str:
    words = {
        TableStatus.PENDING: lambda: pgettext("table status", "not open yet"),
        TableStatus.PLAYING: lambda: pgettext("table status", "playing"),
        TableStatus.DONE: lambda: pgettext("table status", "done"),
        TableStatus.VOID: lambda: pgettext("table status", "void"),
    }
    return words[status]()


def points(value: Fraction) -> str:
    """Place points as a number: whole, or with up to two decimals (shared places: 1.5)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text if current_language() is Language.EN else text.replace(".", ",")  # a decimal comma


def map_title(name: str) -> str:
    return map_title_of(load_board(name).rules.title)


def thread_name(round_no: int, table_no: int, *, final: bool) -> str:
    """A table's thread: "Round 2 · Table 3" ("Final · Table 1")."""
    if final:
        return _("Final · Table {table}").format(table=table_no)
    return _("Round {round} · Table {table}").format(round=round_no, table=table_no)


def round_title(round_no: int, *, final: bool, start: bool = False) -> str:
    """ "round 2" in a sentence, "Round 2" at its start ("the final table", "The final table")."""
    if final:
        return _("The final table") if start else _("the final table")
    return (_("Round {round}") if start else _("round {round}")).format(round=round_no)


# ----- the tournament's message and /ttrtour info -----------------------------------------------------


def _clock_line(clock: ClockSettings | None, server: ClockSettings | None = None) -> str:
    """The clock of the tournament's games; `server`: the server's, which games take when the tournament set none."""
    if clock is None and server is None:
        return _("Turn clock: the server's.")
    if clock is None:
        assert server is not None
        if server.turn_seconds is None:
            return _("Turn clock (the server's): none.")
        return _(
            "Turn clock (the server's): {turn} a turn, {reserve} in reserve; when time runs out: {policy}."
        ).format(
            turn=duration_label(server.turn_seconds),
            reserve=duration_label(server.reserve_seconds),
            policy=_policy_word(server.policy.value),
        )
    if clock.turn_seconds is None:
        return _("Turn clock: none.")
    return _("Turn clock: {turn} a turn, {reserve} in reserve; when time runs out: {policy}.").format(
        turn=duration_label(clock.turn_seconds),
        reserve=duration_label(clock.reserve_seconds),
        policy=_policy_word(clock.policy.value),
    )


def _policy_word(policy: str) -> str:
    if policy == "autopilot":
        return pgettext("timeout policy", "the autopilot plays the turn")
    return pgettext("timeout policy", "wait for a moderator")


def settings_lines(settings: TournamentSettings, server_clock: ClockSettings | None = None) -> list[str]:
    """What a tournament plays: rounds, maps, tables, clock (`server_clock`: the server's, shown when the
    tournament takes it), deadline, rated, final table, cap, check-in."""
    rounds = ngettext("{count} round", "{count} rounds", settings.rounds).format(count=settings.rounds)
    if len(set(settings.maps)) == 1:
        maps = _("{rounds} on {map}").format(rounds=rounds, map=map_title(settings.maps[0]))
    else:
        listed = ", ".join(map_title(m) for m in settings.maps)
        maps = _("{rounds}, on {maps} (one map per round)").format(rounds=rounds, maps=listed)
    lines = [
        _("{maps}; tables of {size}.").format(maps=maps, size=settings.size),
        _clock_line(settings.clock, server_clock),
    ]
    if settings.trains is not None:
        lines.append(_("House rule: {trains} trains per player.").format(trains=settings.trains))
    if settings.round_deadline_minutes is not None:
        lines.append(
            _("Each round has {time} to finish.").format(time=duration_label(settings.round_deadline_minutes * 60))
        )
    lines.append(_("Rated: yes.") if settings.rated else _("Rated: no."))
    if settings.final_table is not None:
        lines.append(_("After the Swiss rounds the top {count} play a final table.").format(count=settings.final_table))
    if settings.cap is not None:
        lines.append(_("At most {cap} players; later ones wait on a list.").format(cap=settings.cap))
    if settings.checkin:
        lines.append(_("Registered players check in before round 1."))
    return lines


def status_line(info: TournamentInfo) -> str:
    """Where the tournament stands, and what players can do now."""
    status = info.status
    if status is TournamentStatus.REGISTRATION:
        if info.registration_open:
            return _("Registration is open: press *Join* (or use `/ttrtour join`).")
        return _("Registration is not open.")
    if status is TournamentStatus.CHECKIN:
        return _("Check-in is open: registered players, press *Check in* (or use `/ttrtour checkin`).")
    if status is TournamentStatus.RUNNING:
        current = info.current
        if current is None:
            return _("The tournament is running.")
        if current.status.value == "running":
            return _("Now playing: {round}.").format(round=round_title(current.round, final=current.final))
        return _("{round} is complete.").format(round=round_title(current.round, final=current.final, start=True))
    if status is TournamentStatus.FINISHED:
        return _("The tournament is over.")
    return _("The tournament was called off.")


def players_lines(info: TournamentInfo) -> list[str]:
    shown_statuses = (
        ParticipantStatus.REGISTERED,
        ParticipantStatus.CHECKED_IN,
        ParticipantStatus.ACTIVE,
    )
    players = info.with_status(*shown_statuses)
    waiting = info.with_status(ParticipantStatus.WAITLISTED)
    if not players:
        lines = [_("No players yet.")]
    else:
        lines = [ngettext("{count} player:", "{count} players:", len(players)).format(count=len(players))]
    if players:
        names = [shown(p.display_name) for p in players[:MAX_NAMES]]
        if info.status is TournamentStatus.CHECKIN:
            names = [
                f"{shown(p.display_name)} ✓" if p.status is ParticipantStatus.CHECKED_IN else shown(p.display_name)
                for p in players[:MAX_NAMES]
            ]
        more = len(players) - MAX_NAMES
        tail = [ngettext("and {count} more", "and {count} more", more).format(count=more)] if more > 0 else []
        lines.append(", ".join([*names, *tail]))
    if waiting:
        listed = ", ".join(shown(p.display_name) for p in waiting[:MAX_NAMES])
        lines.append(_("Waiting list: {names}").format(names=listed))
    return lines


def tournament_text(info: TournamentInfo, server_clock: ClockSettings | None = None) -> str:
    """The tournament's message in its channel (and `/ttrtour info`, with the server's clock where it takes it)."""
    head = _("**{name}** · tournament #{id}").format(name=shown(info.name), id=info.id)
    lines = [head, *settings_lines(info.settings, server_clock), status_line(info), *players_lines(info)]
    return clip("\n".join(lines))


def info_text(info: TournamentInfo, channel_id: int, server_clock: ClockSettings | None = None) -> str:
    """`/ttrtour info`: the tournament's message, its channel and its rounds so far; `server_clock`: the
    server's clock, said as durations when the tournament's games take it."""
    lines = [tournament_text(info, server_clock), _("Channel: <#{channel}>").format(channel=channel_id)]
    for r in info.rounds:
        tables = ", ".join(
            _("table {table} ({status})").format(table=t.table_no, status=table_status_word(t.status)) for t in r.tables
        )
        lines.append(
            _("{round} on {map}: {tables}").format(
                round=round_title(r.round, final=r.final, start=True), map=map_title(r.map), tables=tables
            )
        )
    return clip("\n".join(lines))


# ----- answers (private) -------------------------------------------------------------------------------


def created_answer(info: TournamentInfo) -> str:
    return _(
        "Tournament #{id} **{name}** is set up in this channel. Open registration with "
        "`/ttrtour registration state:open`, and start round 1 with `/ttrtour startround`."
    ).format(id=info.id, name=shown(info.name))


def configured_answer(info: TournamentInfo) -> str:
    return (
        _("Tournament #{id} **{name}** now plays:").format(id=info.id, name=shown(info.name))
        + "\n"
        + "\n".join(settings_lines(info.settings))
    )


def registration_answer(info: TournamentInfo, state: str) -> str:
    if state == "open":
        return _("Registration for **{name}** is open.").format(name=shown(info.name))
    if state == "checkin":
        return _("Registration for **{name}** is closed and check-in is open.").format(name=shown(info.name))
    return _("Registration for **{name}** is closed.").format(name=shown(info.name))


def joined_answer(info: TournamentInfo, status: ParticipantStatus | None) -> str:
    if status is ParticipantStatus.WAITLISTED:
        return _("**{name}** is full: you are on its waiting list, and get a place when one frees up.").format(
            name=shown(info.name)
        )
    return _("You are registered for **{name}**.").format(name=shown(info.name))


def left_answer(info: TournamentInfo) -> str:
    return _("You have left **{name}**.").format(name=shown(info.name))


def checked_in_answer(info: TournamentInfo) -> str:
    return _("You are checked in for **{name}**. Good luck!").format(name=shown(info.name))


def round_started_answer(started: RoundStarted) -> str:
    r = started.round
    count = len(r.tables)
    tables = ngettext("{count} table", "{count} tables", count).format(count=count)
    if started.repaired:
        return _("{round} is paired again: {tables}.").format(
            round=round_title(r.round, final=r.final, start=True), tables=tables
        )
    return _("{round} has started: {tables}.").format(
        round=round_title(r.round, final=r.final, start=True), tables=tables
    )


def substituted_answer(old: str, new: str, info: TournamentInfo) -> str:
    return _("{new} takes the place of {old} in **{name}**.").format(
        new=shown(new), old=shown(old), name=shown(info.name)
    )


def dropped_answer(player: str, info: TournamentInfo, *, disqualified: bool) -> str:
    if disqualified:
        return _("{player} is disqualified from **{name}**.").format(player=shown(player), name=shown(info.name))
    return _("{player} is dropped from **{name}**.").format(player=shown(player), name=shown(info.name))


def reinstated_answer(player: str, info: TournamentInfo, status: ParticipantStatus | None) -> str:
    if status is ParticipantStatus.WAITLISTED:
        return _("{player} is back in **{name}**, on its waiting list: it is full.").format(
            player=shown(player), name=shown(info.name)
        )
    if status is ParticipantStatus.ACTIVE:
        return _("{player} is back in **{name}** and plays the rounds paired from now on.").format(
            player=shown(player), name=shown(info.name)
        )
    return _("{player} is registered for **{name}** again.").format(player=shown(player), name=shown(info.name))


def promoted_text(info: TournamentInfo) -> str:
    """The DM to a waiting player who got a place."""
    if info.status is TournamentStatus.CHECKIN:
        return _(
            "A place has freed up in **{name}** (<#{channel}>): you are registered now. Check in before round 1 "
            "with the *Check in* button on its message or `/ttrtour checkin`."
        ).format(name=shown(info.name), channel=info.channel_id)
    return _(
        "A place has freed up in **{name}** (<#{channel}>): you are off its waiting list and registered now."
    ).format(name=shown(info.name), channel=info.channel_id)


def adjudicated_answer(round_no: int, table_no: int, *, score: bool) -> str:
    if score:
        return _("Round {round}, table {table}: its game is ended and scored as it stands.").format(
            round=round_no, table=table_no
        )
    return _("Round {round}, table {table}: the autopilot plays its game out.").format(round=round_no, table=table_no)


def cancelled_answer(info: TournamentInfo) -> str:
    return _("**{name}** is called off. Its running games go on as casual games.").format(name=shown(info.name))


def export_caption(info: TournamentInfo) -> str:
    return _(
        "**{name}**: the standings (CSV) and every finished game's record with its verification chain (zip)."
    ).format(name=shown(info.name))


def audit_lines(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every tournament action, oldest first (for moderators only): when, who, what, the reason."""
    lines = []
    for entry in entries:
        who = f"<@{entry['user_id']}>" if entry.get("user_id") else _("the bot")
        reason = str(entry.get("reason") or "")
        line = f"{entry['at'][:16].replace('T', ' ')} · {who} · {entry['action']}"
        if reason:
            line += " · " + _("reason: {reason}").format(reason=shown(reason))
        lines.append(line)
    return lines


def audit_text(info: TournamentInfo, entries: Sequence[Mapping[str, Any]]) -> str:
    head = _("The audit of **{name}** ({count} entries, newest last):").format(
        name=shown(info.name), count=len(entries)
    )
    return "\n".join([head, *audit_lines(entries)])


def moderators_only_text() -> str:
    return _(
        "Only this server's moderators run tournaments: members who may manage the server, or who have the "
        "moderator role set with `/ttr config`."
    )


def which_tournament_text(names: Sequence[str]) -> str:
    if not names:
        return _("There is no open tournament in this server. A moderator can create one with `/ttrtour create`.")
    return _("Which tournament? Name one in the `tournament` option: {names}.").format(
        names=", ".join(shown(n) for n in names)
    )


def no_such_tournament_text(typed: str) -> str:
    return _("There is no tournament {typed} in this server.").format(typed=shown(typed[:100]))


def bad_maps_text(typed: str, maps: Sequence[str]) -> str:
    return _(
        "{typed} names no maps. Give one map for every round, or one per round separated by spaces, from: {maps}."
    ).format(typed=shown(typed[:100]), maps=", ".join(maps))


def no_threads_text() -> str:
    return _(
        "I cannot open the tables' threads in this channel. Give me *Create Public Threads* and *Send Messages "
        "in Threads* here, then run `/ttrtour startround` again: it opens the tables not open yet."
    )


def bot_member_text() -> str:
    return _("A bot cannot play in a tournament.")


class Listed(Protocol):
    """What an autocomplete choice names of a tournament (a TournamentInfo or a stored row)."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def status(self) -> TournamentStatus: ...


def tournament_choice_label(info: Listed) -> str:
    return _("#{id} {name} ({status})").format(id=info.id, name=info.name, status=tournament_status_word(info.status))


# ----- public announcements ------------------------------------------------------------------------------


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
