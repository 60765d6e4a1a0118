"""The tournament desk, export: the audit read, the standings as CSV, a zip of every record."""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
import zipfile
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bot.service.core import ServiceCore
from bot.service.finality import Finality
from bot.service.models import GameInfo
from bot.service.record import record_of
from bot.service.tournaments.models import (
    StandingLine,
)
from bot.service.tournaments.results import TourResults, standing_lines
from bot.service.tournaments.tour_core import TourCore
from bot.store.protocols import GameStore, HistoryStore, TournamentStore


class TourExport:
    """The audit, the standings as CSV, the archive (of the results: results.py)."""

    def __init__(
        self,
        core: ServiceCore,
        game_store: GameStore,
        history_store: HistoryStore,
        tournament_store: TournamentStore,
        finality: Finality,
        desk: TourCore,
        results: TourResults,
    ) -> None:
        self.core = core
        self.game_store = game_store
        self.history_store = history_store
        self.tournament_store = tournament_store
        self.finality = finality
        self.desk = desk
        self.results = results

    async def tournament_audit(self, tournament_id: int) -> list[dict[str, Any]]:
        """Every tournament action, oldest first: who, what, details, reason, when."""
        await self.desk.data(tournament_id)
        return [
            {
                "id": a.id,
                "user_id": a.user_id,
                "action": a.action,
                "details": a.details,
                "reason": a.reason,
                "at": a.created_at.isoformat(),
            }
            for a in await self.tournament_store.tournament_audit(tournament_id)
        ]

    async def standings_csv(self, tournament_id: int) -> str:
        """The standings as CSV text (one header line)."""
        lines = await self.results.standings(tournament_id)
        return _csv(lines)

    async def export_archive(self, tournament_id: int, moderator_user_id: int | None = None) -> bytes:
        """One zip: standings.csv, tournament.json (settings, rounds, tables, results, audit) and the record of
        every game of the tournament that is over for good (games/round-R-table-T-game-G.json), each carrying
        its verification chain. Games that run or could still be reopened are left out: their records would show
        their hands and decks (bot/service/finality.py)."""
        info = await self.desk.tournament(tournament_id)
        lines = tuple(standing_lines(await self.desk.data(tournament_id)))
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("standings.csv", _csv(lines))
            summary = {
                "tournament_id": info.id,
                "guild_id": info.guild_id,
                "name": info.name,
                "status": info.status.value,
                "settings": info.settings.to_json(),
                "participants": [
                    {
                        "user_id": p.user_id,
                        "display_name": p.display_name,
                        "status": p.status.value,
                        "substitute_for": p.substitute_for,
                    }
                    for p in info.participants
                ],
                "rounds": [
                    {
                        "round": r.round,
                        "attempt": r.attempt,
                        "final": r.final,
                        "map": r.map,
                        "seed": r.seed,
                        "status": r.status.value,
                        "tables": [
                            {
                                "table": x.table_no,
                                "seats": list(x.seats),
                                "game_id": x.game_id,
                                "status": x.status.value,
                            }
                            for x in r.tables
                        ],
                    }
                    for r in info.rounds
                ],
                "audit": await self.tournament_audit(tournament_id),
            }
            archive.writestr("tournament.json", json.dumps(summary, indent=1, ensure_ascii=False))
            for r in info.rounds:
                for x in r.tables:
                    if x.game_id is None:
                        continue
                    stored = await self.game_store.stored_game(x.game_id)
                    if stored is None or stored.game.seed is None:
                        continue
                    if not await self.finality.over_for_good(GameInfo.of(stored.game, stored.seats)):
                        continue
                    record = record_of(stored, await self.history_store.audit_log(x.game_id))
                    name = f"games/round-{r.round}-table-{x.table_no}-game-{x.game_id}.json"
                    archive.writestr(name, json.dumps(record, ensure_ascii=False))
        return buffer.getvalue()


# ----- helpers --------------------------------------------------------------------------


def _decimal(value: Fraction, places: int = 3) -> str:
    """A fraction for a CSV cell: exact when it ends within `places` decimals, else rounded."""
    text = f"{float(value):.{places}f}".rstrip("0").rstrip(".")
    return text or "0"


CSV_HEADER = (
    "rank",
    "user_id",
    "display_name",
    "status",
    "place_points",
    "score",
    "tickets",
    "opponents_strength",
    "games",
    "wins",
)


def _csv(lines: Sequence[StandingLine]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for line in lines:
        writer.writerow(
            (
                line.rank,
                line.user_id,
                _cell(line.display_name),
                line.status.value,
                _decimal(line.place_points),
                line.score,
                line.tickets,
                _decimal(line.opponents_strength),
                line.games,
                line.wins,
            )
        )
    return out.getvalue()


def _cell(text: str) -> str:
    """A member's name in a CSV cell: never read as a formula by a spreadsheet.

    A spreadsheet reads a cell as a formula when it starts with `=`, `+`, `-` or `@` (or their fullwidth
    forms, `＝`...); such a start gets a `'`, which makes it text. Not only at the start of the name: a
    spreadsheet set up for Swedish or Finnish splits lines at `;` (not at `,`), so `x;=1+1` would be two
    cells, the second a formula; every piece after a `;`, `,`, tab or line end is guarded alike.
    """
    if _formula_start(text) or text[:1] in ("\t", "\r"):
        text = "'" + text
    pieces = _CELL_BREAK.split(text)  # pieces and the breaks between them, alternating
    return "".join(
        "'" + piece if i % 2 == 0 and i > 0 and _formula_start(piece) else piece for i, piece in enumerate(pieces)
    )


# where some spreadsheet starts a new cell: `,` (English), `;` (Swedish, Finnish...), tabs, line ends
_CELL_BREAK = re.compile(r"([;,\t\r\n])")


def _formula_start(piece: str) -> bool:
    """Whether a spreadsheet would read this cell as a formula: its first character other than a space
    is `=`, `+`, `-` or `@`, also in another form (fullwidth `＝`, small `﹦`: the same after NFKC)."""
    first = piece.lstrip(" ")[:1]
    return bool(first) and unicodedata.normalize("NFKC", first)[:1] in ("=", "+", "-", "@")
