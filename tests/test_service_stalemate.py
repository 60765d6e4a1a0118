"""A game nobody can finish, through the real service on both stores: the whole round of passes that ends it
(docs/rules.md, "The end of the game") ends it as any finished game (status, final scores, ratings, the record)
and every message says why, in English, Swedish and Finnish; the autopilot passes once for each seat it plays
and stops there.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers.service_support import GUILD, open_service, play, replay_rows, started_game, stored
from helpers.stalemate import Drive, plan_of

from bot.commands import store_copy
from bot.commands.cli import main
from bot.present.events import public_text
from bot.present.i18n import speaking
from bot.present.recap import history_lines
from bot.present.stage import final_content
from bot.present.status import status_text
from bot.service import NO_CLOCK, ActionResult, EventKind, GameService
from bot.service.kinds import Language
from bot.service.settings import RATED_CASUAL
from bot.service.tournaments.models import TablePlan, TournamentSettings
from bot.store import Database, GameStatus, open_store
from bot.table.stage import stage_content
from engine import Game, Pass
from engine.record import replay_text
from engine.snapshot import canonical_json, snapshot
from engine.state import GameState, Phase
from engine.verify import verify
from maps import load_board

MOD = 900
MAP = "amsterdam"
WHY = {
    Language.EN: "Everyone has passed in turn and nobody can do anything else: the game is over and is scored.",
    Language.SV: "Alla har passat i tur och ordning och ingen kan göra något annat: partiet är slut och poängräknas.",
    Language.FI: "Kaikki ovat ohittaneet vuoronsa peräkkäin eikä kukaan voi tehdä muuta: peli on päättynyt ja "
    "pisteet lasketaan.",
}
FINAL = {
    Language.EN: "is over (everyone passed in turn: nobody could do anything else).",
    Language.SV: "är slut (alla passade i tur och ordning: ingen kunde göra något annat).",
    Language.FI: "on päättynyt (kaikki ohittivat vuoronsa peräkkäin: kukaan ei voinut tehdä muuta).",
}


async def drive_until(service: GameService, game_id: int, passes_left: int) -> ActionResult | None:
    """Drive the game through the service (each move by its player's member) until only `passes_left` passes of
    the last round are left; the last action's result."""
    _players, _trains, plans = plan_of(MAP)
    result = None
    while True:
        game = await service.reading.engine_game(game_id)
        move = Drive(game, plans).move()
        if move is None:
            return result
        if isinstance(move, Pass) and game.passes_in_a_row() + passes_left >= len(game.names):
            return result
        info = await service.core.game(game_id)
        user = info.user_of(move.player)
        assert user is not None
        result = await service.play.act(game_id, user, move, expected_version=info.version)


async def stalemate_game(service: GameService) -> tuple[int, list[int]]:
    players, trains, _plans = plan_of(MAP)
    return await started_game(service, MAP, players, trains=trains)


async def test_the_last_pass_of_the_round_ends_the_game_as_any_finished_game(database: Database) -> None:
    service = await open_service(database)
    try:
        await service.settings.set_guild_config(GUILD, RATED_CASUAL, True)
        game_id, users = await stalemate_game(service)
        await drive_until(service, game_id, passes_left=1)
        game = await service.reading.engine_game(game_id)
        assert not game.finished and game.passes_in_a_row() == len(game.names) - 1
        assert (await service.core.game(game_id)).status is GameStatus.PLAYING
        last = await drive_until(service, game_id, passes_left=0)
        assert last is not None
        game = await service.reading.engine_game(game_id)
        assert game.finished and game.stalemate
        info = await service.core.game(game_id)
        assert info.status is GameStatus.FINISHED
        assert last.waiting is None  # nobody to wait for: no turn, no timers
        kinds = [e.kind for e in last.public]
        assert kinds == [EventKind.PASS, EventKind.GAME_OVER, EventKind.FINAL_SCORES]
        # ratings: rated as any finished casual game
        assert await service.ratings.is_rated(game_id)
        board = await service.ratings.leaderboard(GUILD)
        assert sorted(line.user_id for line in board.lines) == sorted(users)
        assert sum(line.wins for line in board.lines) == len(game.winners())
        # the record anyone may now export replays to the same scored end, within the record format's output
        read = await service.audit.export_record(game_id, users[0])
        status, printed = replay_text(json.dumps(read.record))
        assert status == 0
        assert printed["finished"] is True and printed["to_move"] is None and printed["winners"] == game.winners()
        assert [p["score"] for p in printed["players"]] == [s.total for s in game.score()]
        moves = read.record["moves"]
        assert all("pass" in m for m in moves[-len(game.names) :])
        # the record says the game has the bot's rule; it verifies, every move legal under that rule
        assert read.record["pass_round_ends"] is True
        verdict = verify(json.loads(json.dumps(read.record)))
        assert verdict.ok and ("every move is legal", True) in [(c.what, c.ok) for c in verdict.checks]
        # a replayer of the specification alone (the key ignored) sees an unfinished game, the next pass to make
        spec_only = {k: v for k, v in read.record.items() if k != "pass_round_ends"}
        status, printed = replay_text(json.dumps(spec_only))
        assert status == 0 and printed["finished"] is False and printed["winners"] is None
        assert printed["to_move"] == {"player": game.names[game.state.current], "must": "turn"}
        # the words: the game-over line, the history, the final message and the status say why
        stage = await service.stages.stage(game_id, history=True)
        assert stage.key == "final" and stage.table.stalemate and not stage.early
        assert stage.table.scores is not None
        game_over = next(e for e in last.public if e.kind is EventKind.GAME_OVER)
        for language, why in WHY.items():
            with speaking(language):
                assert public_text(info, game_over) == why
                assert why in history_lines(info, stage.history)[-1]
                assert FINAL[language] in stage_content(stage, (), set(), "")  # the channel's last message
                view = await service.reading.public_view(game_id)
                assert why in status_text(info, view, load_board(MAP).rules)
    finally:
        await service.close()


async def test_a_tournament_table_ended_by_the_round_of_passes_records_its_result(database: Database) -> None:
    service = await open_service(database)
    try:
        players, trains, _plans = plan_of(MAP)
        settings = TournamentSettings(maps=(MAP,), rounds=1, clock=NO_CLOCK, trains=trains, table_size=players)
        info = await service.tournaments.registration.create_tournament(GUILD, 5000, MOD, "Cup", settings)
        await service.tournaments.registration.open_registration(info.id, MOD)
        members = [300 + i for i in range(players)]
        for user in members:
            await service.tournaments.registration.join_tournament(info.id, user, f"m{user}")
        tables = iter(range(7000, 7100))

        async def thread(_plan: TablePlan) -> int:
            return next(tables)

        started = await service.tournaments.rounds.start_round(info.id, MOD, thread)
        (table,) = started.round.tables
        assert table.game_id is not None
        await drive_until(service, table.game_id, passes_left=0)
        game = await service.reading.engine_game(table.game_id)
        assert game.finished and game.stalemate
        result = await service.tournaments.results.table_result(table.game_id)
        assert result is not None and result.round_complete and result.tournament_finished
        assert {f.user_id for f in result.finishes} == set(members)
        assert {f.score for f in result.finishes} == {s.total for s in game.score()}
        assert min(f.place for f in result.finishes) == 1
    finally:
        await service.close()


async def test_a_game_ended_by_its_final_round_does_not_say_so(database: Database) -> None:
    service = await open_service(database)
    try:
        game_id, _users = await started_game(service, "usa", 2, trains=3)
        await play(service, game_id, 2000, random.Random(3))
        game = await service.reading.engine_game(game_id)
        assert game.finished and not game.stalemate
        stage = await service.stages.stage(game_id, history=True)
        assert not stage.table.stalemate
        info = await service.core.game(game_id)
        with speaking(Language.EN):
            assert WHY[Language.EN] not in "\n".join(history_lines(info, stage.history))
            assert stage.table.scores is not None
            assert FINAL[Language.EN] not in final_content(info, "", stage.table.scores)
    finally:
        await service.close()


async def test_the_autopilot_passes_once_for_each_seat_and_the_game_ends(database: Database) -> None:
    """Seats handed to the autopilot at the stalemate: it passes for each in turn, and the round of passes ends
    the game (no endless run of passes until the runner's safety stop)."""
    service = await open_service(database)
    try:
        game_id, _users = await stalemate_game(service)
        await drive_until(service, game_id, passes_left=len(plan_of(MAP)[2]))
        game = await service.reading.engine_game(game_id)
        made = len(game.moves)
        mover = game.seat(game.names[game.state.current])
        seats = [s for s in range(len(game.names)) if s != mover] + [mover]  # the seat to move last: it plays at once
        result = None
        for seat in seats:
            result = await service.moderation.set_autopilot(game_id, seat, moderator_user_id=MOD, reason="away")
        assert result is not None
        game = await service.reading.engine_game(game_id)
        assert game.finished and game.stalemate
        assert len(game.moves) == made + len(game.names)  # one pass for each seat, no more
        assert (await service.core.game(game_id)).status is GameStatus.FINISHED
        assert [e.kind for e in result.public][-2:] == [EventKind.GAME_OVER, EventKind.FINAL_SCORES]
    finally:
        await service.close()


def old_snapshot(data: dict[str, Any]) -> str:
    """A snapshot as written before games said whether a round of passes ends them: without the key."""
    body = {k: v for k, v in data.items() if k not in ("check", "pass_round_ends")}
    return canonical_json({**body, "check": hashlib.sha256(canonical_json(body).encode()).hexdigest()})


async def test_a_stored_game_keeps_the_rule_loaded_from_an_old_snapshot_or_from_its_move_log(
    database: Database,
) -> None:
    """One pass before the end of the round the service is closed; the game is loaded again from a snapshot
    written before snapshots carried the rule, or (the snapshot being of another move) by replaying its move
    log: either way the last pass ends the game."""
    for how in ("old snapshot", "move log"):
        service = await open_service(database)
        try:
            game_id, _users = await stalemate_game(service)
            await drive_until(service, game_id, passes_left=1)
        finally:
            await service.close()
        rows = await stored(database, game_id)
        game = replay_rows(rows)  # the stored rows as a record of a bot game: with the rule
        assert game.pass_round_ends and not game.finished
        if how == "old snapshot":
            data = old_snapshot(snapshot(game))
            count = len(game.moves)
        else:
            data = canonical_json(snapshot(game.replay_until(len(game.moves) - 2)))
            count = len(game.moves) - 2
        store = await open_store(database)
        try:
            await store.history.save_snapshot(game_id, rows.game.version, count, data)
        finally:
            await store.close()
        service = await open_service(database)
        try:
            loaded = await service.reading.engine_game(game_id)
            assert loaded.pass_round_ends and loaded.state == game.state
            await drive_until(service, game_id, passes_left=0)
            ended = await service.reading.engine_game(game_id)
            assert ended.finished and ended.stalemate
            assert (await service.core.game(game_id)).status is GameStatus.FINISHED
        finally:
            await service.close()


def test_migrate_store_copies_a_game_ended_by_the_round_of_passes_and_replays_it_to_its_end(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "live.sqlite3"

    async def ended() -> int:
        service = await open_service(source)
        try:
            game_id, _users = await stalemate_game(service)
            await drive_until(service, game_id, passes_left=0)
            return game_id
        finally:
            await service.close()

    game_id = asyncio.run(ended())
    assert main(["migrate-store", str(source), pg_url]) == 0
    assert "1 games replayed to the same state" in capsys.readouterr().out
    copied = asyncio.run(stored(pg_url, game_id))
    replayed = store_copy._replayed(copied)  # what migrate-store compares on both sides: the game replayed
    assert not isinstance(replayed, str)
    state, _moves = replayed
    assert isinstance(state, GameState) and state.phase is Phase.OVER and state.final_turns is None

    async def loaded() -> Game:
        service = await open_service(pg_url)
        try:
            return await service.reading.engine_game(game_id)
        finally:
            await service.close()

    game = asyncio.run(loaded())
    assert game.finished and game.stalemate and game.state == state
