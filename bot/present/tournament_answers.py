"""The private answers of `/ttrtour`: to players and moderators, the audit, which tournament is meant, and
its autocomplete labels; the DM to a waiting player who got a place.

Answers are written in the member's language: the caller speaks it (`speaking`). Members' names are shown
escaped (bot/present/escape.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.present.escape import shown
from bot.present.i18n import _, ngettext
from bot.present.tournament_message import settings_lines
from bot.present.tournament_words import round_title, tournament_status_word
from bot.service.tournaments.models import RoundStarted, TournamentInfo
from bot.store.tournament_rows import ParticipantStatus, TournamentStatus


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
