"""The tournament desk: create and configure, registration, check-in, rounds, results, moderation, export.

A part of the game service (`GameService.tournaments`). It writes no
sentences: everything it returns is typed data (models.py) and every refusal
a `ServiceError` with a `Why`. One object per concern, each in its own
module, over a shared core, put together by `Tournaments`:

- tour_core.py: each tournament's lock, loading it, versioned changes, audit entries
- registration.py: create, configure, registration (cap, waiting list), join, leave, check-in, cancel
- rounds.py: start a round, re-pair it; round_plan.py: who sits at which table; tables.py: open a round's tables
- deadlines.py: a round's deadline (its overdue tables told), a re-paired round's old games ended after a crash
- results.py: a table's game that ended is recorded once (and rated), catch-up after a restart, standings
- sanctions.py: substitute, drop, disqualify (a sanction stays until `reinstate` lifts it), adjudicate
- export.py: the audit read, the standings as CSV, a zip of every record

- **Versions.** Every change of a tournament is one store transaction checked
  against the version the service read, under the tournament's own lock: a
  double click starts a round once, and a stale button is refused
  (`TournamentChanged`). The tournament is written first and the games after:
  a crash in between leaves the tournament saying what should be, and the next
  call finishes it (a table paired but not open yet is opened by the next
  `start_round`; a game that ended without its table recorded is recorded by
  the next call that reads the tournament, `catch_up`).
- **Tables.** Each table is one game, opened through the lobby calls (create,
  join, start with the drawn seat order) in a channel the front opens for it
  (`open_channel`: a thread in the tournament's channel), called outside the
  tournament's lock: the round is paired and recorded under it first, and a
  Discord failure leaves it so, to be opened on. Participants listed in
  `settings.autopilot` and dropped ones get their seat played by the autopilot.
- **Results.** When a table's game ends (results.py is the first of the
  service's end-of-game listeners: bot/service/game_end.py) its result is recorded once: places after
  the game's own tie-breaks (ratings.placings), place points shared on ties
  (standings.place_points); the game is rated as a tournament game if the
  tournament is rated; the round is complete with its last table and the
  tournament finished with its last round. An abandoned game voids its table.
- **Substitutes** take over the seat (as `/ttrmod replace`) and the standing
  of the player they replace (results, meetings and first seats).
"""

from __future__ import annotations

from bot.service.core import ServiceCore
from bot.service.finality import Finality
from bot.service.lobby import LobbyService
from bot.service.moderation import ModerationService
from bot.service.ratings import RatingsService
from bot.service.tournaments.deadlines import TourTimers
from bot.service.tournaments.export import TourExport
from bot.service.tournaments.registration import TourRegistration
from bot.service.tournaments.results import TourResults
from bot.service.tournaments.rounds import TourRounds
from bot.service.tournaments.sanctions import TourSanctions
from bot.service.tournaments.tables import TableOpener
from bot.service.tournaments.tour_core import OpenChannel, TourAction, TourCore
from bot.store.protocols import GameStore, HistoryStore, TimerStore, TournamentStore


class Tournaments:
    """Tournaments of many tables, each table one game of the service: the parts, each given what it uses (of
    the store: the tournaments' tables; the export also reads games and their history, the deadlines timers)."""

    def __init__(
        self,
        core: ServiceCore,
        game_store: GameStore,
        history_store: HistoryStore,
        timer_store: TimerStore,
        tournament_store: TournamentStore,
        *,
        lobby: LobbyService,
        moderation: ModerationService,
        ratings: RatingsService,
        finality: Finality,
    ) -> None:
        self.desk = TourCore(core, tournament_store)
        self.results = TourResults(core, tournament_store, ratings, self.desk)
        self.desk.catch_up = self.results.record_ended
        self.registration = TourRegistration(core, tournament_store, self.desk)
        self.tables = TableOpener(core, tournament_store, lobby, moderation, self.desk)
        self.rounds = TourRounds(core, lobby, self.desk, self.tables)
        self.sanctions = TourSanctions(core, moderation, self.desk)
        self.export = TourExport(core, game_store, history_store, tournament_store, finality, self.desk, self.results)
        self.deadlines = TourTimers(core, timer_store, lobby, self.desk)


__all__ = ["OpenChannel", "TourAction", "Tournaments"]
