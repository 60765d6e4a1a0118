"""The tournament's message in its channel and `/ttrtour info`: what it plays, where it stands, its players.

The message is written in the server's language, `/ttrtour info` in the member's: the caller speaks the language
(`speaking`). Members' names are shown escaped (bot/present/escape.py)."""

from __future__ import annotations

from bot.present.escape import shown
from bot.present.i18n import _, ngettext, pgettext
from bot.present.layout import clip
from bot.present.suggestions import duration_label
from bot.present.tournament_words import map_title, round_title, table_status_word
from bot.service.clock import ClockSettings
from bot.service.tournaments.models import TournamentInfo, TournamentSettings
from bot.store.tournament_rows import ParticipantStatus, TournamentStatus

MAX_NAMES = 60  # names listed in a tournament's message; the rest counted


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
    if not settings.plans:
        lines.append(_("Planned turns (`/ttr plan`): off."))
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
