"""Tournaments through the real service on real database files (issue 14): the desk from registration to export.

A 10-player tournament of 3 rounds on two maps: most seats are played by the
autopilot, three members move for themselves (their moves are chosen here and
made through `act`); one of them is substituted, one dropped, and the service
is closed and opened again on the same database while round 1 runs. The
standings are recomputed here from the games themselves, the CSV and the
archive read back, and every record in the archive verified. That test and
the double click run on both stores (SQLite and PostgreSQL).
"""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import json
import zipfile
from collections.abc import Iterable
from datetime import timedelta
from fractions import Fraction

import pytest
from helpers.clock_support import FakeTime
from helpers.service_support import GUILD, open_service

from bot.present.i18n import speaking
from bot.present.refusals import refusal_text
from bot.service import NO_CLOCK, GameService, ServiceError, Why
from bot.service.errors import NotAPlayer
from bot.service.kinds import Language
from bot.service.ratings import placings
from bot.service.tournaments.models import TablePlan, TournamentInfo, TournamentSettings
from bot.store import Database
from bot.store.tournament_rows import ParticipantStatus, RoundStatus, TableStatus, TournamentStatus
from engine.autopilot import choose_move
from engine.verify import verify

MOD = 900
CHANNEL = 5000
USERS = [100 + i for i in range(10)]
HUMANS = USERS[:3]  # they move for themselves; the autopilot plays everyone else
SUBSTITUTE = 200


class Threads:
    """The front's part: a thread per table (here: a fresh channel id), and what it was asked for."""

    def __init__(self) -> None:
        self.ids = itertools.count(7000)
        self.plans: list[TablePlan] = []

    async def __call__(self, plan: TablePlan) -> int:
        self.plans.append(plan)
        return next(self.ids)


def refused(why: Why) -> pytest.RaisesExc[ServiceError]:
    return pytest.raises(ServiceError, match=f"^{why.value}\\(")


async def play_humans(service: GameService, info: TournamentInfo, humans: Iterable[int], moves: int = 10_000) -> int:
    """Make up to `moves` moves for the humans at the current round's tables (the autopilot's choice); how many."""
    made = 0
    wanted = set(humans)
    current = info.current
    assert current is not None
    progress = True
    while progress and made < moves:
        progress = False
        for table in current.tables:
            if table.game_id is None:
                continue
            game_info = await service.core.game(table.game_id)
            if not game_info.status.active:
                continue
            game = await service.reading.engine_game(table.game_id)
            for name in game.waiting_for():
                user = game_info.user_of(name)
                if user in wanted:
                    await service.play.act(
                        table.game_id, user, choose_move(game, name), expected_version=game_info.version
                    )
                    made += 1
                    progress = True
                    break
            if made >= moves:
                break
    return made


def check_round(info: TournamentInfo, round_no: int, active: set[int], sizes: list[int]) -> None:
    r = info.rounds[round_no - 1]
    seated = [u for t in r.tables for u in t.seats]
    assert sorted(seated) == sorted(active), "every active player at exactly one table"
    assert sorted((len(t.seats) for t in r.tables), reverse=True) == sizes


async def test_ten_player_tournament_of_three_rounds_on_two_maps(database: Database) -> None:
    threads = Threads()
    service = await open_service(database, seed=3)
    settings = TournamentSettings(
        maps=("usa", "india", "usa"), rounds=3, clock=NO_CLOCK, autopilot=tuple(USERS[3:]), trains=8
    )
    assert settings.table_size == 4
    info = await service.tournaments.registration.create_tournament(
        GUILD, CHANNEL, MOD, "  Autumn   Cup ", settings, "the autumn cup"
    )
    assert (info.name, info.status, info.registration_open) == ("Autumn Cup", TournamentStatus.REGISTRATION, False)
    with refused(Why.REGISTRATION_CLOSED):
        await service.tournaments.registration.join_tournament(info.id, USERS[0], "p0")
    await service.tournaments.registration.open_registration(info.id, MOD)
    for i, user in enumerate(USERS):
        joined = await service.tournaments.registration.join_tournament(info.id, user, f"p{i}")
        assert joined.status is ParticipantStatus.REGISTERED
    with refused(Why.ALREADY_REGISTERED):
        await service.tournaments.registration.join_tournament(info.id, USERS[0], "p0")
    await service.tournaments.registration.close_registration(info.id, MOD)

    # ----- round 1 on usa: 4 + 3 + 3; the tables of autopilot seats only are played out at once
    started = await service.tournaments.rounds.start_round(info.id, MOD, threads, reason="go")
    version = started.tournament.version
    check_round(started.tournament, 1, set(USERS), [4, 3, 3])
    assert [(p.round, p.table_no, p.map, p.channel_id) for p in threads.plans] == [
        (1, 1, "usa", CHANNEL),
        (1, 2, "usa", CHANNEL),
        (1, 3, "usa", CHANNEL),
    ]
    for table in started.round.tables:
        assert table.game_id is not None and table.channel_id is not None
        game = await service.core.game(table.game_id)
        assert game.channel_id == table.channel_id and game.map == "usa"
        assert tuple(s.user_id for s in game.seats) == table.seats, "seats in the drawn order"
        assert table.status is (TableStatus.PLAYING if set(table.seats) & set(HUMANS) else TableStatus.DONE)
    with refused(Why.ROUND_RUNNING):
        await service.tournaments.rounds.start_round(info.id, MOD, threads)
    with refused(Why.TOURNAMENT_CHANGED):
        await service.tournaments.rounds.start_round(info.id, MOD, threads, expected_version=version - 1)
    assert len(threads.plans) == 3, "a refused start opened nothing"

    # a substitute takes human 0's seat and standing; human 1 drops (the autopilot plays their seat on)
    sub = await service.tournaments.sanctions.substitute(info.id, MOD, HUMANS[0], SUBSTITUTE, "sub", "had to leave")
    assert sub.game_id is not None
    seat = (await service.core.game(sub.game_id)).seat_of(SUBSTITUTE)
    assert seat is not None and not seat.autopilot
    assert (await service.core.game(sub.game_id)).seat_of(HUMANS[0]) is None
    with refused(Why.ALREADY_IN_TOURNAMENT):
        await service.tournaments.sanctions.substitute(info.id, MOD, HUMANS[2], SUBSTITUTE, "sub")
    dropped = await service.tournaments.sanctions.drop(info.id, MOD, HUMANS[1], "no show")
    assert dropped.status is ParticipantStatus.DROPPED
    with refused(Why.NOT_ACTIVE):
        await service.tournaments.sanctions.drop(info.id, MOD, HUMANS[1], "again")
    humans = [SUBSTITUTE, HUMANS[2]]
    assert await play_humans(service, await service.tournaments.desk.tournament(info.id), humans, moves=4) == 4

    # ----- restart mid-round: a new service on the same database goes on from the store alone
    await service.close()
    service = await open_service(database, seed=4)
    try:
        info = await service.tournaments.desk.tournament(info.id)
        assert info.current is not None and info.current.status is RoundStatus.RUNNING
        await play_humans(service, info, humans)
        info = await service.tournaments.desk.tournament(info.id)
        assert info.rounds[0].status is RoundStatus.COMPLETE
        assert all(t.status is TableStatus.DONE for t in info.rounds[0].tables)

        # ----- round 2 on india: 9 players (the dropped one out, the substitute in), 3 + 3 + 3
        second = await service.tournaments.rounds.start_round(info.id, MOD, threads)
        active = (set(USERS) - {HUMANS[0], HUMANS[1]}) | {SUBSTITUTE}
        check_round(second.tournament, 2, active, [3, 3, 3])
        assert second.round.map == "india"
        human_tables = [t for t in second.round.tables if t.status is TableStatus.PLAYING]
        assert human_tables, "the humans' tables wait for them"
        for k, table in enumerate(human_tables):
            await service.tournaments.sanctions.adjudicate(
                info.id, MOD, 2, table.table_no, score=k == 0, reason="overdue"
            )
        info = await service.tournaments.desk.tournament(info.id)
        assert info.rounds[1].status is RoundStatus.COMPLETE
        with refused(Why.TABLE_OVER):
            await service.tournaments.sanctions.adjudicate(info.id, MOD, 2, human_tables[0].table_no, score=True)

        # ----- round 3 on usa, played out; then the tournament is finished
        third = await service.tournaments.rounds.start_round(info.id, MOD, threads)
        check_round(third.tournament, 3, active, [3, 3, 3])
        await play_humans(service, third.tournament, humans)
        info = await service.tournaments.desk.tournament(info.id)
        assert info.status is TournamentStatus.FINISHED
        with refused(Why.TOURNAMENT_IS):
            await service.tournaments.rounds.start_round(info.id, MOD, threads)

        await check_results(service, info)
    finally:
        await service.close()


async def check_results(service: GameService, info: TournamentInfo) -> None:
    """Standings recomputed from the games, the CSV, the archive (its records verify), ratings and audit."""
    entry = {HUMANS[0]: SUBSTITUTE}
    points: dict[int, Fraction] = {}
    scores: dict[int, int] = {}
    tickets: dict[int, int] = {}
    games = []
    for r in info.rounds:
        for table in r.tables:
            assert table.game_id is not None
            games.append(table.game_id)
            game = await service.reading.engine_game(table.game_id)
            game_info = await service.core.game(table.game_id)
            totals = game.score()
            places = placings(totals, game.rules.longest_bonus > 0)
            n = len(totals)
            for total, place in zip(totals, places, strict=True):
                user = game_info.user_of(total.name)
                assert user is not None
                user = entry.get(user, user)
                tied = places.count(place)
                share = Fraction(sum(n - k for k in range(place, place + tied)), tied)
                points[user] = points.get(user, Fraction(0)) + share
                scores[user] = scores.get(user, 0) + total.total
                tickets[user] = tickets.get(user, 0) + total.completed
            assert await service.ratings.is_rated(table.game_id)
    lines = await service.tournaments.results.standings(info.id)
    assert {line.user_id for line in lines} == set(points)
    for line in lines:
        assert (line.place_points, line.score, line.tickets) == (
            points[line.user_id],
            scores[line.user_id],
            tickets[line.user_id],
        )
    keys = [(line.place_points, line.score, line.tickets, line.opponents_strength) for line in lines]
    assert keys == sorted(keys, reverse=True)
    assert lines[0].rank == 1
    sub_line = next(line for line in lines if line.user_id == SUBSTITUTE)
    assert sub_line.games == 3, "the substitute carries on the standing of the player replaced"

    text = await service.tournaments.export.standings_csv(info.id)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [int(row["user_id"]) for row in rows] == [line.user_id for line in lines]
    assert [int(row["score"]) for row in rows] == [line.score for line in lines]
    assert all(Fraction(row["place_points"]) == line.place_points for row, line in zip(rows, lines, strict=True))

    archive = zipfile.ZipFile(io.BytesIO(await service.tournaments.export.export_archive(info.id)))
    names = archive.namelist()
    assert "standings.csv" in names and "tournament.json" in names
    assert archive.read("standings.csv").decode() == text
    records = [n for n in names if n.startswith("games/")]
    assert len(records) == len(games) == 9
    for name in records:
        doc = json.loads(archive.read(name))
        assert doc["conductor"]["game_id"] in games
        verdict = verify(doc)
        assert verdict.ok, [c for c in verdict.checks if not c.ok]
        doc["moves"][len(doc["moves"]) // 2]["player"] = "nobody"
        assert not verify(doc).ok
    summary = json.loads(archive.read("tournament.json"))
    assert [len(r["tables"]) for r in summary["rounds"]] == [3, 3, 3]

    actions = [a["action"] for a in await service.tournaments.export.tournament_audit(info.id)]
    assert actions.count("join") == 10 and actions.count("start_round") == 3
    assert actions.count("table_result") == 9
    assert {"create", "open_registration", "close_registration", "substitute", "drop", "adjudicate"} <= set(actions)


async def test_settings_refusals(service: GameService) -> None:
    cases: list[tuple[Why, dict[str, object]]] = [
        (Why.BAD_ROUNDS, {"maps": ("usa",), "rounds": 0}),
        (Why.BAD_MAP_LIST, {"maps": ("usa", "india"), "rounds": 3}),
        (Why.UNKNOWN_MAP, {"maps": ("atlantis",), "rounds": 1}),
        (Why.BAD_TABLE_SIZE, {"maps": ("usa", "india"), "rounds": 2, "table_size": 5}),
        (Why.BAD_TABLE_SIZE, {"maps": ("usa",), "rounds": 1, "table_size": 1}),
        (Why.BAD_FINAL_TABLE, {"maps": ("switzerland",), "rounds": 1, "final_table": 4}),
        (Why.BAD_CAP, {"maps": ("usa",), "rounds": 1, "cap": 1}),
        (Why.BAD_DEADLINE, {"maps": ("usa",), "rounds": 1, "round_deadline_minutes": 0}),
        (Why.BAD_FLAG, {"maps": ("usa",), "rounds": 1, "rated": "yes"}),
        (Why.BAD_TRAINS, {"maps": ("usa",), "rounds": 1, "trains": 1}),
    ]
    for why, kwargs in cases:
        with refused(why):
            TournamentSettings(**kwargs)  # type: ignore[arg-type]
    assert TournamentSettings(maps=("switzerland",), rounds=1).table_size == 3
    assert TournamentSettings(maps=("usa",), rounds=2).table_size == 4
    ok = TournamentSettings(maps=("usa",), rounds=1)
    with refused(Why.BAD_TOURNAMENT_NAME):
        await service.tournaments.registration.create_tournament(GUILD, CHANNEL, MOD, "   ", ok)
    with refused(Why.BAD_ID):
        await service.tournaments.registration.create_tournament(GUILD, -1, MOD, "Cup", ok)
    with refused(Why.NO_SUCH_TOURNAMENT):
        await service.tournaments.desk.tournament(12345)
    assert await service.tournaments.desk.tournaments(GUILD) == []


async def test_waiting_list_check_in_and_re_pairing(service: GameService) -> None:
    threads = Threads()
    settings = TournamentSettings(maps=("usa",), rounds=2, cap=8, checkin=True, clock=NO_CLOCK, final_table=3)
    info = await service.tournaments.registration.create_tournament(GUILD, CHANNEL, MOD, "Spring", settings)
    await service.tournaments.registration.open_registration(info.id, MOD)
    with refused(Why.REGISTRATION_ALREADY):
        await service.tournaments.registration.open_registration(info.id, MOD)
    statuses = [(await service.tournaments.registration.join_tournament(info.id, u, f"p{u}")).status for u in USERS]
    assert statuses == [ParticipantStatus.REGISTERED] * 8 + [ParticipantStatus.WAITLISTED] * 2
    left = await service.tournaments.registration.leave_tournament(info.id, USERS[2])
    assert left.promoted == USERS[8], "the first on the waiting list gets the place"
    with refused(Why.NOT_REGISTERED):
        await service.tournaments.registration.leave_tournament(info.id, USERS[2])
    # a tournament with check-in starts only after the window
    with refused(Why.TOURNAMENT_IS):
        await service.tournaments.rounds.start_round(info.id, MOD, threads)
    with refused(Why.CHECKIN_CLOSED):
        await service.tournaments.registration.check_in(info.id, USERS[0])
    await service.tournaments.registration.open_checkin(info.id, MOD)
    with refused(Why.TOURNAMENT_IS):
        await service.tournaments.registration.join_tournament(info.id, 300, "late")
    registered = [u for u in USERS if u not in (USERS[2], USERS[9])]
    for user in registered[:-1]:
        await service.tournaments.registration.check_in(info.id, user)
    with refused(Why.NOT_REGISTERED):
        await service.tournaments.registration.check_in(info.id, USERS[9])  # still waiting
    with refused(Why.ALREADY_REGISTERED):
        await service.tournaments.registration.check_in(info.id, USERS[0])

    before = await service.tournaments.desk.tournament(info.id)
    for bad in (
        service.tournaments.sanctions.substitute(info.id, MOD, USERS[0], 301, "x"),  # not running yet
        service.tournaments.sanctions.adjudicate(info.id, MOD, 1, 1, score=True),
        service.tournaments.sanctions.drop(info.id, MOD, 999, "who"),
    ):
        with pytest.raises(ServiceError):
            await bad
    assert (await service.tournaments.desk.tournament(info.id)).version == before.version, "refusals change nothing"

    started = await service.tournaments.rounds.start_round(info.id, MOD, threads)
    assert started.not_checked_in == (registered[-1],)
    check_round(started.tournament, 1, set(registered[:-1]), [4, 3])
    old_games = [t.game_id for t in started.round.tables]

    # nobody moved yet (members keep their tickets first): the round can be paired again
    again = await service.tournaments.rounds.repair_round(info.id, MOD, threads, reason="wrong map")
    assert again.repaired and again.round.attempt == 2
    check_round(again.tournament, 1, set(registered[:-1]), [4, 3])
    for game_id in old_games:
        assert game_id is not None
        assert not (await service.core.game(game_id)).status.active
    assert not set(old_games) & {t.game_id for t in again.round.tables}
    assert len(threads.plans) == 4

    # a member's move: no more re-pairing
    table = again.round.tables[0]
    assert table.game_id is not None
    game = await service.reading.engine_game(table.game_id)
    name = game.waiting_for()[0]
    game_info = await service.core.game(table.game_id)
    user = game_info.user_of(name)
    assert user is not None
    await service.play.act(table.game_id, user, choose_move(game, name))
    with refused(Why.ROUND_HAS_MOVES):
        await service.tournaments.rounds.repair_round(info.id, MOD, threads)
    with refused(Why.NO_SUCH_TABLE):
        await service.tournaments.sanctions.adjudicate(info.id, MOD, 1, 9, score=True)

    # the moderator settles both tables by the autopilot; round 2, then the final table of the top 3
    for t in again.round.tables:
        await service.tournaments.sanctions.adjudicate(info.id, MOD, 1, t.table_no, score=False)
    second = await service.tournaments.rounds.start_round(info.id, MOD, threads)
    assert second.repeats == 0 or second.repeats >= 0
    for t in second.round.tables:
        await service.tournaments.sanctions.adjudicate(info.id, MOD, 2, t.table_no, score=False)
    ranked = [line.user_id for line in await service.tournaments.results.standings(info.id)]
    final = await service.tournaments.rounds.start_round(info.id, MOD, threads)
    assert final.round.final and len(final.round.tables) == 1
    assert set(final.round.tables[0].seats) == set(ranked[:3])
    await service.tournaments.sanctions.adjudicate(info.id, MOD, 3, 1, score=True)
    done = await service.tournaments.desk.tournament(info.id)
    assert done.status is TournamentStatus.FINISHED
    with refused(Why.TOURNAMENT_IS):
        await service.tournaments.rounds.start_round(info.id, MOD, threads)


async def test_disqualified_player_leaves_the_standings(service: GameService) -> None:
    threads = Threads()
    settings = TournamentSettings(maps=("usa",), rounds=2, clock=NO_CLOCK, autopilot=tuple(USERS[:6]), rated=False)
    info = await service.tournaments.registration.create_tournament(GUILD, CHANNEL, MOD, "Cup", settings)
    await service.tournaments.registration.open_registration(info.id, MOD)
    for user in USERS[:6]:
        await service.tournaments.registration.join_tournament(info.id, user, f"p{user}")
    started = await service.tournaments.rounds.start_round(info.id, MOD, threads)
    assert started.round.status is RoundStatus.COMPLETE, "autopilot tables play out at once"
    for table in started.round.tables:
        assert table.game_id is not None and not await service.ratings.is_rated(table.game_id), "not a rated tournament"
    lines = await service.tournaments.results.standings(info.id)
    assert len(lines) == 6
    cheat = lines[0].user_id
    await service.tournaments.sanctions.disqualify(info.id, MOD, cheat, "cheating")
    after = await service.tournaments.results.standings(info.id)
    assert [line.user_id for line in after] == [line.user_id for line in lines[1:]]
    assert after[0].rank == 1
    second = await service.tournaments.rounds.start_round(info.id, MOD, threads)
    check_round(second.tournament, 2, set(USERS[:6]) - {cheat}, [3, 2])
    assert second.tournament.status is TournamentStatus.FINISHED
    with refused(Why.TOURNAMENT_IS):
        await service.tournaments.sanctions.disqualify(info.id, MOD, after[0].user_id, "late")


async def test_overdue_tables_after_the_round_deadline(timed_service: GameService, time: FakeTime) -> None:
    service = timed_service
    settings = TournamentSettings(maps=("india",), rounds=1, clock=NO_CLOCK, round_deadline_minutes=30)
    info = await service.tournaments.registration.create_tournament(GUILD, CHANNEL, MOD, "Quick", settings)
    await service.tournaments.registration.open_registration(info.id, MOD)
    for user in USERS[:5]:
        await service.tournaments.registration.join_tournament(info.id, user, f"p{user}")
    started = await service.tournaments.rounds.start_round(info.id, MOD, Threads())
    assert started.round.deadline == time.now + timedelta(minutes=30)
    assert sorted(len(t.seats) for t in started.round.tables) == [2, 3]
    time.advance(29 * 60)
    assert await service.tournaments.deadlines.overdue_tables(info.id) == ()
    time.advance(2 * 60)
    overdue = await service.tournaments.deadlines.overdue_tables(info.id)
    assert [t.table_no for t in overdue] == [1, 2]
    await service.tournaments.sanctions.adjudicate(info.id, MOD, 1, 1, score=True, reason="overdue")
    assert [t.table_no for t in await service.tournaments.deadlines.overdue_tables(info.id)] == [2]
    result = await service.tournaments.desk.tournament(info.id)
    assert result.rounds[0].tables[0].status is TableStatus.DONE
    assert result.status is TournamentStatus.RUNNING


async def test_a_double_click_starts_a_round_once(database: Database) -> None:
    first, second = (
        await open_service(database, seed=1),
        await open_service(database, seed=2),
    )  # two processes, one database
    try:
        settings = TournamentSettings(maps=("usa",), rounds=2, clock=NO_CLOCK)
        info = await first.tournaments.registration.create_tournament(GUILD, CHANNEL, MOD, "Cup", settings)
        await first.tournaments.registration.open_registration(info.id, MOD)
        for user in USERS[:6]:
            await first.tournaments.registration.join_tournament(info.id, user, f"p{user}")
        version = (await first.tournaments.desk.tournament(info.id)).version
        threads = Threads()
        outcomes = await asyncio.gather(
            first.tournaments.rounds.start_round(info.id, MOD, threads, expected_version=version),
            first.tournaments.rounds.start_round(info.id, MOD, threads, expected_version=version),
            second.tournaments.rounds.start_round(info.id, MOD, threads, expected_version=version),
            return_exceptions=True,
        )
        started = [o for o in outcomes if not isinstance(o, BaseException)]
        refusals = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(started) == 1 and len(refusals) == 2
        assert all(isinstance(o, ServiceError) and o.why is Why.TOURNAMENT_CHANGED for o in refusals)
        after = await second.tournaments.desk.tournament(info.id)
        assert len(after.rounds) == 1 and len(threads.plans) == len(after.rounds[0].tables) == 2
        games = [t.game_id for t in after.rounds[0].tables]
        assert len(set(games)) == 2 and None not in games

        # a table's result is recorded once, whoever sees its game end
        table = after.rounds[0].tables[0]
        assert table.game_id is not None
        await first.moderation.end(table.game_id, MOD, True, "scored")
        seen = await second.tournaments.results.table_result(
            table.game_id
        )  # the recorded result, read back (not recorded again)
        assert seen is not None and seen.game_id == table.game_id and seen.finishes
        assert seen == await first.tournaments.results.table_result(table.game_id)
        reopened = await second.tournaments.desk.tournament(info.id)
        assert next(t.status for t in reopened.rounds[0].tables) is TableStatus.DONE
        audit = [a["action"] for a in await second.tournaments.export.tournament_audit(info.id)]
        assert audit.count("table_result") == 1 and audit.count("start_round") == 1
    finally:
        await first.close()
        await second.close()


async def test_an_id_that_cannot_be_a_tournament_is_none(service: GameService) -> None:
    for bad in (0, -5, True, "7", 1 << 70):
        with refused(Why.NO_SUCH_TOURNAMENT):
            await service.tournaments.desk.tournament(bad)  # type: ignore[arg-type]


async def test_a_refusal_about_someone_else_names_them(service: GameService) -> None:
    """Dropping, disqualifying or substituting someone not in the tournament is refused with that member's id
    (said as their name, not "you"); a member's own leave or check-in of a tournament they are not in says "you"."""
    settings = TournamentSettings(maps=("usa",), rounds=1, clock=NO_CLOCK, checkin=True)
    info = await service.tournaments.registration.create_tournament(GUILD, CHANNEL, MOD, "Cup", settings)
    await service.tournaments.registration.open_registration(info.id, MOD)
    for user in USERS[:4]:
        await service.tournaments.registration.join_tournament(info.id, user, f"p{user}")
    with refused(Why.NOT_REGISTERED) as own:
        await service.tournaments.registration.leave_tournament(info.id, 999)
    assert "user_id" not in own.value.facts
    with speaking(Language.EN):
        assert refusal_text(own.value) == "You are not registered for this tournament."
    for bad in (
        service.tournaments.sanctions.drop(info.id, MOD, 999, "who"),
        service.tournaments.sanctions.disqualify(info.id, MOD, 999, "who"),
    ):
        with refused(Why.NOT_REGISTERED) as other:
            await bad
        assert other.value.facts["user_id"] == 999
        with speaking(Language.EN):
            assert refusal_text(other.value) == "<@999> is not registered in this tournament."
            named = NotAPlayer(Why.NOT_REGISTERED, {**other.value.facts, "name": "Ann *B*"})
            assert refusal_text(named) == "Ann \\*B\\* is not registered in this tournament."
    await service.tournaments.registration.open_checkin(info.id, MOD)
    for user in USERS[:4]:
        await service.tournaments.registration.check_in(info.id, user)
    await service.tournaments.rounds.start_round(info.id, MOD, Threads())
    with refused(Why.NOT_REGISTERED) as other:
        await service.tournaments.sanctions.substitute(info.id, MOD, 999, SUBSTITUTE, "sub")
    assert other.value.facts["user_id"] == 999
    assert (await service.tournaments.desk.tournament(info.id)).participant(SUBSTITUTE) is None


async def test_a_finished_table_s_result_is_read_back(service: GameService) -> None:
    """`table_result` of a game whose table was recorded already (as the game ended) gives that recorded result,
    again and again: its players' places, points and scores as stored; the round (and the tournament) said over
    only with the table recorded last."""
    threads = Threads()
    settings = TournamentSettings(maps=("usa",), rounds=2, clock=NO_CLOCK, autopilot=tuple(USERS[:6]), rated=False)
    info = await service.tournaments.registration.create_tournament(GUILD, CHANNEL, MOD, "Cup", settings)
    await service.tournaments.registration.open_registration(info.id, MOD)
    for user in USERS[:6]:
        await service.tournaments.registration.join_tournament(info.id, user, f"p{user}")
    for number in (1, 2):
        started = await service.tournaments.rounds.start_round(info.id, MOD, threads)
        assert started.round.status is RoundStatus.COMPLETE, "autopilot tables play out at once"
        results = []
        for table in started.round.tables:
            assert table.game_id is not None and table.status is TableStatus.DONE
            result = await service.tournaments.results.table_result(table.game_id)
            assert result is not None, "a recorded table's result is read back"
            assert result == await service.tournaments.results.table_result(table.game_id)
            assert (result.tournament_id, result.round, result.table_no, result.game_id) == (
                info.id,
                number,
                table.table_no,
                table.game_id,
            )
            assert {f.user_id for f in result.finishes} == set(table.seats)
            assert {f.display_name for f in result.finishes} == {f"p{u}" for u in table.seats}
            assert min(f.place for f in result.finishes) == 1 and not result.rated
            assert sum(f.place_points for f in result.finishes) == sum(range(len(table.seats)))
            results.append(result)
        assert sum(r.round_complete for r in results) == 1, "the table recorded last completes the round"
        assert sum(r.tournament_finished for r in results) == (1 if number == 2 else 0)
        stored = {
            (r.round, r.table_no, r.user_id): r
            for r in (await service.store.tournaments.tournament_data(info.id)).results
        }  # type: ignore[union-attr]
        for result in results:
            for f in result.finishes:
                row = stored[(result.round, result.table_no, f.user_id)]
                assert (row.place, row.place_points, row.score, row.tickets_done) == (
                    f.place,
                    f.place_points,
                    f.score,
                    f.tickets_done,
                )
    assert results[0].standings == await service.tournaments.results.standings(info.id)
