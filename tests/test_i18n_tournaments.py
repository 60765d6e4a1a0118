"""The tournaments' texts (bot/present/tournament_*.py, their refusals) in Swedish and Finnish, for a real tournament:
no English text of the catalogue left, the languages' own words there, every placeholder filled."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from helpers.service_support import GUILD, open_service

from bot.present.i18n import speaking
from bot.present.refusals import refusal_text
from bot.present.tournament_announcements import round_lines, table_result_lines, thread_welcome
from bot.present.tournament_answers import (
    adjudicated_answer,
    bad_maps_text,
    cancelled_answer,
    configured_answer,
    created_answer,
    dropped_answer,
    export_caption,
    joined_answer,
    moderators_only_text,
    registration_answer,
    round_started_answer,
    substituted_answer,
    which_tournament_text,
)
from bot.present.tournament_message import info_text, tournament_text
from bot.present.tournament_standings import standings_lines, standings_table
from bot.present.tournament_words import thread_name
from bot.service import NO_CLOCK, ServiceError, Why
from bot.service.kinds import Language
from bot.service.tournaments.models import (
    RoundStarted,
    StandingLine,
    TableFinishInfo,
    TablePlan,
    TableResult,
    TournamentInfo,
    TournamentSettings,
)
from tools.i18n import po_path, read

MOD = 900
PLAYERS = [100 + i for i in range(6)]
OWN = (
    "bot/present/tournament_words.py",
    "bot/present/tournament_message.py",
    "bot/present/tournament_answers.py",
    "bot/present/tournament_announcements.py",
    "bot/present/tournament_standings.py",
)
# tournament refusals (bot/present/refusals.py) and their facts, as the service gives them
REFUSALS = [
    (Why.BAD_TOURNAMENT_NAME, {"limit": 100}),
    (Why.BAD_ROUNDS, {"low": 1, "high": 20, "value": 30}),
    (Why.BAD_MAP_LIST, {"rounds": 3, "value": ("usa", "india")}),
    (Why.BAD_TABLE_SIZE, {"map": "switzerland", "low": 2, "high": 3, "value": 4}),
    (Why.BAD_DEADLINE, {"low": 1, "high": 43200, "value": 0}),
    (Why.BAD_FINAL_TABLE, {"low": 2, "high": 5, "value": 9}),
    (Why.BAD_CAP, {"low": 2, "high": 1000, "value": 1}),
    (Why.NO_SUCH_TOURNAMENT, {"tournament_id": 4}),
    (Why.NO_SUCH_TABLE, {"tournament_id": 1, "round": 2, "table": 9}),
    (Why.NOT_REGISTERED, {"tournament_id": 1}),
    (Why.NOT_REGISTERED, {"tournament_id": 1, "user_id": 5}),
    (Why.NOT_REGISTERED, {"tournament_id": 1, "user_id": 5, "name": "Åsa"}),
    (Why.ALREADY_REGISTERED, {"tournament_id": 1, "status": "registered"}),
    (Why.ALREADY_REGISTERED, {"tournament_id": 1, "status": "waitlisted"}),
    (Why.ALREADY_IN_TOURNAMENT, {"tournament_id": 1, "user_id": 5}),
    (Why.REGISTRATION_CLOSED, {"tournament_id": 1}),
    (Why.REGISTRATION_ALREADY, {"tournament_id": 1, "open": True}),
    (Why.TOURNAMENT_IS, {"tournament_id": 1, "status": "running"}),
    (Why.TOURNAMENT_IS, {"tournament_id": 1, "status": "checkin"}),
    (Why.NO_CHECKIN, {"tournament_id": 1}),
    (Why.CHECKIN_CLOSED, {"tournament_id": 1}),
    (Why.ROUND_RUNNING, {"tournament_id": 1, "round": 2}),
    (Why.NO_ROUND_RUNNING, {"tournament_id": 1}),
    (Why.ROUND_HAS_MOVES, {"tournament_id": 1, "round": 2, "game_id": 7}),
    (Why.ALL_ROUNDS_PLAYED, {"tournament_id": 1, "rounds": 3}),
    (Why.TOO_FEW_PLAYERS, {"tournament_id": 1, "players": 1, "low": 2, "table_size": 4}),
    (Why.NOT_ACTIVE, {"tournament_id": 1, "user_id": 5, "status": "dropped"}),
    (Why.NOT_ACTIVE, {"tournament_id": 1, "user_id": 5, "status": "dropped", "name": "Åsa"}),
    (Why.NOT_ACTIVE, {"tournament_id": 1, "user_id": 5, "status": "dropped", "action": "disqualify", "name": "Åsa"}),
    (Why.NOT_ACTIVE, {"tournament_id": 1, "user_id": 5, "status": "disqualified", "action": "drop", "name": "Åsa"}),
    (Why.TABLE_OVER, {"tournament_id": 1, "round": 1, "table": 2, "status": "done"}),
    (Why.TOURNAMENT_CHANGED, {"tournament_id": 1}),
    (Why.BAD_SEAT_ORDER, {"value": (1, 2)}),
]


@pytest.fixture
def backend() -> str:
    return "sqlite"


def english_texts() -> list[str]:
    """The English msgids of this part of the catalogue, without placeholders, long enough to be telling."""
    catalogue = read(po_path("en"), "en")
    out = []
    for message in catalogue:
        if not message.id or not any(path in OWN for path, _ in message.locations):
            continue
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            for piece in text.replace("}", "{").split("{")[::2]:
                if len(piece.strip()) >= 14:
                    out.append(piece.strip())
    return out


async def tournament(tmp_path: Path) -> tuple[TournamentInfo, RoundStarted, tuple[StandingLine, ...]]:
    """A real tournament of 6 autopilot players after round 1 (its tables played out at once)."""
    service = await open_service(tmp_path / "t.sqlite3", seed=5)
    try:
        settings = TournamentSettings(
            maps=("usa", "india"), rounds=2, clock=NO_CLOCK, autopilot=tuple(PLAYERS), trains=6, final_table=3, cap=8
        )
        info = await service.tournaments.registration.create_tournament(GUILD, 5000, MOD, "Höstcupen *2026*", settings)
        await service.tournaments.registration.open_registration(info.id, MOD)
        for i, user in enumerate(PLAYERS):
            await service.tournaments.registration.join_tournament(info.id, user, f"spelare{i}")
        threads = itertools.count(7000)

        async def open_channel(plan: TablePlan) -> int:
            return next(threads)

        started = await service.tournaments.rounds.start_round(info.id, MOD, open_channel)
        return (
            await service.tournaments.desk.tournament(info.id),
            started,
            await service.tournaments.results.standings(info.id),
        )
    finally:
        await service.close()


def texts(info: TournamentInfo, started: RoundStarted, standings: tuple[StandingLine, ...]) -> Iterator[str]:
    r = info.rounds[0]
    table = r.tables[0]
    plan = TablePlan(info.id, info.name, info.channel_id, 1, table.table_no, False, r.map, table.seats, table.names)
    finishes = tuple(
        TableFinishInfo(u, n, place, Fraction(3 - place, 1) if place < 3 else Fraction(1, 2), 80 - place, 2)
        for place, (u, n) in enumerate(zip(table.seats, table.names, strict=True), start=1)
    )
    result = TableResult(info.id, 1, table.table_no, table.game_id or 1, finishes, True, True, False)
    yield tournament_text(info)
    yield info_text(info, info.channel_id)
    yield "\n".join(round_lines(started))
    yield round_started_answer(started)
    yield thread_welcome(plan)
    yield thread_name(1, 2, final=False)
    yield "\n".join(table_result_lines(info, result))
    yield "\n".join(table_result_lines(info, TableResult(info.id, 1, 2, 3, (), False, False, True)))
    assert standings
    yield "\n".join(standings_lines(info, standings))
    yield standings_table(info, standings)[3]
    yield created_answer(info)
    yield configured_answer(info)
    yield registration_answer(info, "checkin")
    yield joined_answer(info, None)
    yield substituted_answer("a", "b", info)
    yield dropped_answer("a", info, disqualified=True)
    yield adjudicated_answer(1, 2, score=False)
    yield cancelled_answer(info)
    yield export_caption(info)
    yield moderators_only_text()
    yield which_tournament_text(["#1 cup"])
    yield bad_maps_text("narnia", ["usa"])
    for why, facts in REFUSALS:
        yield refusal_text(ServiceError(why, facts))


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (Language.SV, ("turnering", "Runda", "bord", "Lycka till")),
        (Language.FI, ("turnaus", "Kierros", "pöytä", "Onnea")),
    ],
)
async def test_tournament_texts_in_swedish_and_finnish(
    tmp_path: Path, language: Language, expected: tuple[str, ...]
) -> None:
    info, started, standings = await tournament(tmp_path)
    with speaking(Language.EN):
        english = list(texts(info, started, standings))
    with speaking(language):
        translated = list(texts(info, started, standings))
        heading, columns, _rows, alt = standings_table(info, [])
    assert len(english) == len(translated)
    joined = "\n".join(translated)
    for text in english_texts():
        assert text not in joined, f"untranslated: {text!r}"
    for en, there in zip(english, translated, strict=True):
        assert "{" not in there and "}" not in there, there
        if any(c.isalpha() for c in en.replace(info.name, "")) and not en.startswith("#"):
            assert en != there, f"left in English: {en!r}"
    for word in expected:
        assert word in joined, word
    assert columns[0] != "Rank" and info.name in heading and alt
    assert "Höstcupen \\*2026\\*" in joined, "the name is escaped in every language"
