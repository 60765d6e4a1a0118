"""Ratings through the real service on real database files: who is rated, in which order, exactly once.

The expected ratings are computed here with `openskill` itself from the final scores, with the
standings recomputed independently from the rules (points, tickets, longest-path bonus).
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from helpers.service_support import GUILD, database_fingerprint, open_service, play, started_game
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.service import GameService, InvalidInput
from bot.service.ratings import START, placings, shown_ordinal, shown_rating, shown_uncertainty, update
from bot.service.settings import RATED_CASUAL
from bot.store import Database, NewGame, SqliteStore
from bot.store.rating_rows import RatedGame, RatedSeat, Skill
from engine import Game
from engine.scoring import PlayerScore, winners

MOD = 900
rated_casual_on = {"key": RATED_CASUAL, "value": True}


async def finished_game(
    service: GameService, players: int = 4, map_name: str = "usa", seed: int = 1
) -> tuple[int, list[int], Game]:
    """A game played to its end by random legal moves (3 trains each: short)."""
    game_id, users = await started_game(service, map_name, players, trains=3)
    await play(service, game_id, 2000, random.Random(seed))
    game = await service.reading.engine_game(game_id)
    assert game.finished
    return game_id, users, game


def expected_places(game: Game) -> dict[str, int]:
    """Places from the rules' order, recomputed here: more points, then more tickets, then the longest bonus."""
    scores = game.score()
    bonus = game.rules.longest_bonus > 0

    def better(a: PlayerScore, b: PlayerScore) -> bool:
        if a.total != b.total:
            return a.total > b.total
        if a.completed != b.completed:
            return a.completed > b.completed
        return bonus and a.bonus["longest"] > 0 and b.bonus["longest"] == 0

    return {s.name: 1 + sum(1 for o in scores if better(o, s)) for s in scores}


async def test_a_finished_four_player_game_updates_four_ratings_as_openskill_does(database: Database) -> None:
    service = await open_service(database)
    try:
        await service.settings.set_guild_config(GUILD, RATED_CASUAL, True)
        game_id, users, game = await finished_game(service)
        assert await service.ratings.is_rated(game_id)
        info = await service.core.game(game_id)
        places = expected_places(game)
        # the winners by the engine's own rule are exactly the first places
        assert {n for n, p in places.items() if p == 1} == set(game.winners())
        model = PlackettLuce()
        order = [s.name for s in game.score()]
        teams = [[model.rating()] for _ in order]
        after = model.rate(teams, ranks=[float(places[n]) for n in order])
        for name, team in zip(order, after, strict=True):
            user = info.user_of(name)
            assert user is not None
            for map_name in (None, "usa"):
                skill = await service.ratings.rating_of(GUILD, user, map_name)
                assert skill is not None
                assert skill.mu == pytest.approx(team[0].mu) and skill.sigma == pytest.approx(team[0].sigma)
        # a better place never gets a lower rating (all started equal)
        by_place = sorted(order, key=lambda n: places[n])
        mus = [(await service.ratings.rating_of(GUILD, info.user_of(n) or 0)) for n in by_place]
        assert all(a is not None and b is not None and a.mu >= b.mu for a, b in itertools.pairwise(mus))
        board = await service.ratings.leaderboard(GUILD)
        assert sorted(line.user_id for line in board.lines) == sorted(users)
        assert [line.ordinal for line in board.lines] == sorted((line.ordinal for line in board.lines), reverse=True)
        assert all(line.games == 1 for line in board.lines)
        assert sum(line.wins for line in board.lines) == len(game.winners())
        assert (await service.ratings.leaderboard(GUILD, "usa")).lines == board.lines
        assert (await service.ratings.leaderboard(GUILD, "india")).lines == ()
        profile = await service.ratings.profile(GUILD, users[0])
        mine = next(s for s in game.score() if info.user_of(s.name) == users[0])
        assert profile.games == 1 and profile.favourite_map == "usa"
        assert profile.average_score == mine.total
        assert (profile.tickets_done, profile.tickets_total) == (mine.completed, mine.completed + mine.failed)
    finally:
        await service.close()


async def test_a_second_rating_of_the_same_game_changes_nothing(database: Database) -> None:
    service = await open_service(database)
    try:
        await service.settings.set_guild_config(GUILD, RATED_CASUAL, True)
        game_id, _, _ = await finished_game(service, players=3)
        before = await database_fingerprint(database)
        assert not await service.ratings.rate_game(game_id, rated=True)
        assert not await service.ratings.rate_game(game_id, rated=True, kind="tournament")
        assert await service.ratings.rate_pending() == 0
        assert await database_fingerprint(database) == before
    finally:
        await service.close()


async def test_casual_games_are_not_rated_unless_the_server_turns_it_on(database: Database) -> None:
    service = await open_service(database)
    try:
        game_id, users, _ = await finished_game(service, players=2)
        assert not await service.ratings.is_rated(game_id)
        assert (await service.ratings.leaderboard(GUILD)).lines == ()
        assert (await service.ratings.profile(GUILD, users[0])).rating is None
        # a tournament (the caller decides) rates it whatever the server's setting
        assert await service.ratings.rate_game(game_id, rated=True, kind="tournament")
        assert len((await service.ratings.leaderboard(GUILD)).lines) == 2
        assert not await service.ratings.rate_game(game_id, rated=False)
    finally:
        await service.close()


async def test_an_abandoned_game_is_not_rated(database: Database) -> None:
    service = await open_service(database)
    try:
        await service.settings.set_guild_config(GUILD, RATED_CASUAL, True)
        game_id, _ = await started_game(service, "usa", 3)
        await play(service, game_id, 10, random.Random(3))
        await service.moderation.end(game_id, MOD, False, "abandoned")
        assert not await service.ratings.rate_game(game_id, rated=True)
        assert not await service.ratings.rate_game(game_id, rated=True, ended_by_moderator=True)
        assert not await service.ratings.is_rated(game_id)
        # scored by a moderator: only a caller that says so (a tournament's adjudication) rates it
        other, _ = await started_game(service, "usa", 3)
        await play(service, other, 10, random.Random(4))
        await service.moderation.end(other, MOD, True, "scored as it stands")
        assert not await service.ratings.is_rated(other)
        assert not await service.ratings.rate_game(other, rated=True)
        assert await service.ratings.rate_game(other, rated=True, kind="tournament", ended_by_moderator=True)
    finally:
        await service.close()


async def test_autopilot_players_are_left_out_and_members_keep_their_order(database: Database) -> None:
    service = await open_service(database)
    try:
        await service.settings.set_guild_config(GUILD, RATED_CASUAL, True)
        result = await service.lobby.create_game(GUILD, 77, 100, "ann", "usa", trains=3, bots=2)
        game_id = result.game.id
        await service.lobby.join(game_id, 101, "bob")
        await service.lobby.start(game_id, 100)
        await play(service, game_id, 2000, random.Random(5))
        game = await service.reading.engine_game(game_id)
        assert game.finished
        info = await service.core.game(game_id)
        board = await service.ratings.leaderboard(GUILD)
        assert sorted(line.user_id for line in board.lines) == [100, 101]
        members = [s for s in game.score() if info.user_of(s.name) in (100, 101)]
        places = placings(members, game.rules.longest_bonus > 0)
        model = PlackettLuce()
        after = model.rate([[model.rating()], [model.rating()]], ranks=[float(p) for p in places])
        for score, team in zip(members, after, strict=True):
            skill = await service.ratings.rating_of(GUILD, info.user_of(score.name) or 0)
            assert skill is not None and skill.mu == pytest.approx(team[0].mu)
    finally:
        await service.close()


async def test_a_handed_over_seat_counts_for_the_member_who_holds_it_at_the_end(database: Database) -> None:
    service = await open_service(database)
    try:
        await service.settings.set_guild_config(GUILD, RATED_CASUAL, True)
        game_id, _ = await started_game(service, "usa", 3, trains=3)
        await play(service, game_id, 6, random.Random(6))
        away = (await service.core.game(game_id)).seats[1].user_id
        await service.moderation.replace(game_id, MOD, 1, 555, "sub", "away")
        await play(service, game_id, 2000, random.Random(7))
        assert (await service.reading.engine_game(game_id)).finished
        rated = {line.user_id for line in (await service.ratings.leaderboard(GUILD)).lines}
        assert 555 in rated and away not in rated and len(rated) == 3
    finally:
        await service.close()


async def test_ratings_survive_a_restart_and_a_stop_before_rating_is_made_good(
    database: Database, tmp_path: Path
) -> None:
    service = await open_service(database)
    try:
        # finished before the server turned ratings on: never rated, not even at the next start
        early, _, _ = await finished_game(service, players=2, seed=8)
        await service.settings.set_guild_config(GUILD, RATED_CASUAL, True)
        rated, users, _ = await finished_game(service, players=3, seed=9)
        board = await service.ratings.leaderboard(GUILD)

        # the bot stopped between the last move's commit and the rating: nobody hears of the end
        service.runner.end_listeners.clear()
        late, _, _ = await finished_game(service, players=2, seed=10)
        assert not await service.ratings.is_rated(late)
    finally:
        await service.close()
    service = await open_service(database)
    try:
        assert (await service.ratings.leaderboard(GUILD)).lines == board.lines  # kept across the restart
        assert await service.ratings.rate_pending() == 1
        assert (
            await service.ratings.is_rated(late)
            and await service.ratings.is_rated(rated)
            and not await service.ratings.is_rated(early)
        )
        assert await service.ratings.rate_pending() == 0
        # the same members 100 and 101 played the late game too (the early one counts for nobody)
        games = {line.user_id: line.games for line in (await service.ratings.leaderboard(GUILD)).lines}
        assert games == {users[0]: 2, users[1]: 2, users[2]: 1}
    finally:
        await service.close()


async def test_ties_share_a_place_and_equal_ratings(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "ties.sqlite3")
    try:
        row = await store.games.create_game(NewGame(GUILD, 5, 200, "m0", "usa"))
        seats = tuple(RatedSeat(200 + i, f"m{i}", place, 50, 1, 2) for i, place in enumerate((1, 2, 2, 4)))
        assert await store.ratings.record_rating(RatedGame(row.id, GUILD, "usa", "casual", seats), update, START)
        rows = {r.user_id: r.skill for r in await store.ratings.ratings_page(GUILD, "", 0, 10)}
        assert rows[201] == rows[202]
        assert rows[200].mu > rows[201].mu > rows[203].mu
        model = PlackettLuce()
        expected = model.rate([[model.rating()] for _ in seats], ranks=[1.0, 2.0, 2.0, 4.0])
        assert [rows[200 + i].mu for i in range(4)] == pytest.approx([t[0].mu for t in expected])
        assert not await store.ratings.record_rating(RatedGame(row.id, GUILD, "usa", "casual", seats), update, START)
    finally:
        await store.close()


def _score(name: str, total: int, completed: int, longest: bool) -> PlayerScore:
    score = PlayerScore(name, total, completed=completed)
    score.bonus["longest"] = 10 if longest else 0
    score.routes = total - score.bonus["longest"]
    return score


@given(
    st.lists(
        st.tuples(st.integers(-5, 5), st.integers(0, 2), st.booleans()),
        min_size=2,
        max_size=5,
    ),
    st.booleans(),
)
def test_placings_follow_the_rules_order_and_first_places_are_the_winners(
    rows: list[tuple[int, int, bool]], bonus: bool
) -> None:
    scores = [_score(f"p{i}", total, completed, longest) for i, (total, completed, longest) in enumerate(rows)]
    places = placings(scores, bonus)
    assert {s.name for s, p in zip(scores, places, strict=True) if p == 1} == set(winners(scores, bonus))
    for a, pa in zip(scores, places, strict=True):
        for b, pb in zip(scores, places, strict=True):
            key_a = (a.total, a.completed, int(bonus and a.bonus["longest"] > 0))
            key_b = (b.total, b.completed, int(bonus and b.bonus["longest"] > 0))
            assert (pa < pb) == (key_a > key_b) and (pa == pb) == (key_a == key_b)


def test_the_shown_scale() -> None:
    assert (shown_rating(START), shown_uncertainty(START), shown_ordinal(START)) == (1000, 1000, 0)
    skill = Skill(30.0, 2.0)
    assert shown_rating(skill) - shown_uncertainty(skill) == shown_ordinal(skill) == 960


async def test_a_page_the_leaderboard_lacks_is_refused(service: GameService) -> None:
    for page in (0, 2, -1):
        with pytest.raises(InvalidInput):
            await service.ratings.leaderboard(GUILD, None, page)
    with pytest.raises(InvalidInput):
        await service.ratings.leaderboard(GUILD, "atlantis", 1)
    assert (await service.ratings.leaderboard(GUILD, None, 1)).pages == 1


async def test_the_leaderboard_turns_pages_in_rank_order(service: GameService) -> None:
    store = service.store
    for first in range(0, 20, 2):  # 20 members, two per game
        row = await store.games.create_game(NewGame(GUILD, 3000 + first, 500 + first, "a", "india"))
        seats = (RatedSeat(500 + first, f"m{first}", 1, 60, 2, 2), RatedSeat(501 + first, f"m{first + 1}", 2, 10, 0, 2))
        assert await store.ratings.record_rating(RatedGame(row.id, GUILD, "india", "casual", seats), update, START)
    one, two = await service.ratings.leaderboard(GUILD, None, 1), await service.ratings.leaderboard(GUILD, "india", 2)
    assert one.pages == two.pages == 2
    ordinals = [line.ordinal for line in one.lines + two.lines]
    assert ordinals == sorted(ordinals, reverse=True)
    # the ten winners have the same number and share rank 1, the ten others rank 11 (ties share a rank)
    assert [line.rank for line in one.lines + two.lines] == [1] * 10 + [11] * 10
    assert len(set(ordinals)) == 2
    assert {line.user_id for line in one.lines[:10]} == {500 + i for i in range(0, 20, 2)}  # the winners on top
    with pytest.raises(InvalidInput):
        await service.ratings.leaderboard(GUILD, None, 3)
    assert (await service.ratings.leaderboard(GUILD, "usa", 1)).lines == ()
    profile = await service.ratings.profile(GUILD, 500)
    assert (profile.games, profile.wins, profile.favourite_map, profile.ticket_share) == (1, 1, "india", 1.0)
    assert profile.rank == 1 and profile.rating == one.lines[0].ordinal  # the leaderboard's number and rank


def test_equal_numbers_share_a_rank() -> None:
    from bot.service.ratings import ranked
    from bot.store.rating_rows import RatingRow

    def row(user: int, mu: float) -> RatingRow:
        return RatingRow(GUILD, "overall", user, Skill(mu, 2.0), 3, 1, f"m{user}")

    lines = ranked([row(1, 30.0), row(2, 30.0001), row(3, 29.0), row(4, 28.0), row(5, 28.0)])
    assert [(line.user_id, line.rank) for line in lines] == [(1, 1), (2, 1), (3, 3), (4, 4), (5, 4)]
    assert [line.ordinal for line in lines] == [960, 960, 920, 880, 880]
