"""The tournaments' words (`/ttrtour`): button labels, statuses, place points, map titles, a round's and a
table thread's name."""

from __future__ import annotations

from fractions import Fraction

from bot.present.i18n import _, current_language, pgettext
from bot.present.names import map_title_of
from bot.service.kinds import Language
from bot.store.tournament_rows import ParticipantStatus, TableStatus, TournamentStatus
from maps import load_board


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
