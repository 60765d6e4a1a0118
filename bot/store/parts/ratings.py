"""The ratings, written once per game (the `rated_games` key, in the same transaction).

Two processes may rate games of one server at once on PostgreSQL; each rating
transaction holds the server's advisory lock there, so one reads the ratings
the other wrote (no lost update), as on SQLite where writes take turns.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import ClauseElement, exists, func, insert, literal_column, select

from bot.store.columns import Row, now_text
from bot.store.parts.base import Backend
from bot.store.query import Flavor, Q, Work, changed, many, one, param, scalar
from bot.store.rating_rows import OVERALL, RatedGame, RatingRow, RatingUpdate, ResultRow, Skill
from bot.store.schema import games, guild_settings, rated_games, rating_results, ratings

RATING_NAMES = ("guild_id", "map", "user_id", "mu", "sigma", "games", "wins", "display_name")
RATING = tuple(ratings.c[c] for c in RATING_NAMES)
# the conservative rating (OpenSkill's ordinal), by which the leaderboard sorts
ORDINAL = ratings.c.mu - 3 * ratings.c.sigma
LEADERBOARD = (ORDINAL.desc(), ratings.c.games.desc(), ratings.c.user_id)
# the first key of the server's advisory lock while its ratings change ("Rate" in ASCII)
RATING_LOCK = 0x52617465

LOCK_RATINGS = Q(select(func.pg_advisory_xact_lock(param("lock"), func.hashtext(param("guild")))), only="postgresql")
RATED_NAMES = ("game_id", "guild_id", "map", "kind", "rated", "rated_at")


def _first_rating(flavor: Flavor) -> ClauseElement:
    query = flavor.insert(rated_games).values({c: param(c) for c in RATED_NAMES})
    return query.on_conflict_do_nothing(index_elements=["game_id"]).returning(  # type: ignore[no-any-return]
        rated_games.c.game_id
    )


def _put_rating(flavor: Flavor) -> ClauseElement:
    query = flavor.insert(ratings).values(
        {**{c: param(c) for c in RATING_NAMES if c != "games"}, "games": 1, "updated_at": param("updated_at")}
    )
    return query.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=["guild_id", "map", "user_id"],
        set_={
            "mu": query.excluded.mu,
            "sigma": query.excluded.sigma,
            "games": ratings.c.games + 1,
            "wins": ratings.c.wins + query.excluded.wins,
            "display_name": query.excluded.display_name,
            "updated_at": query.excluded.updated_at,
        },
    )


FIRST_RATING = Q(_first_rating)
PUT_RATING = Q(_put_rating)
RESULT_NAMES = (
    "game_id",
    "user_id",
    "place",
    "score",
    "tickets_done",
    "tickets_total",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)
INSERT_RESULT = Q(insert(rating_results).values({c: param(c) for c in RESULT_NAMES}))
SKILL = Q(
    select(ratings.c.mu, ratings.c.sigma).where(
        ratings.c.guild_id == param("guild_id"), ratings.c.map == param("map"), ratings.c.user_id == param("user_id")
    )
)
IS_RATED = Q(select(rated_games.c.game_id).where(rated_games.c.game_id == param("game_id")))
OF_BOARD = (ratings.c.guild_id == param("guild_id"), ratings.c.map == param("map"))
RATINGS_PAGE = Q(select(*RATING).where(*OF_BOARD).order_by(*LEADERBOARD).limit(param("limit")).offset(param("offset")))
RATINGS_COUNT = Q(select(func.count()).select_from(ratings).where(*OF_BOARD))
BOARD_ORDER = Q(select(ratings.c.user_id).where(*OF_BOARD).order_by(*LEADERBOARD))
MEMBER_RATINGS = Q(
    select(*RATING)
    .where(ratings.c.guild_id == param("guild_id"), ratings.c.user_id == param("user_id"))
    .order_by(ratings.c.map)
)
MEMBER_RESULTS = Q(
    select(
        rating_results.c.game_id,
        rated_games.c.map,
        rating_results.c.place,
        rating_results.c.score,
        rating_results.c.tickets_done,
        rating_results.c.tickets_total,
    )
    .join(rated_games, rated_games.c.game_id == rating_results.c.game_id)
    .where(rated_games.c.guild_id == param("guild_id"), rating_results.c.user_id == param("user_id"))
    .order_by(rating_results.c.game_id)
)
FINISHED_UNRATED = Q(
    select(games.c.id)
    .join(guild_settings, (guild_settings.c.guild_id == games.c.guild_id) & (guild_settings.c.key == param("key")))
    .where(
        games.c.status == literal_column("'finished'"),
        guild_settings.c.value == literal_column("'true'"),
        games.c.updated_at >= guild_settings.c.updated_at,
        ~exists(select(rated_games.c.game_id).where(rated_games.c.game_id == games.c.id)),
    )
    .order_by(games.c.updated_at, games.c.id)
)


def _rating(row: Row) -> RatingRow:
    guild_id, map_key, user_id, mu, sigma, played, wins, name = row
    return RatingRow(int(guild_id), str(map_key), int(user_id), Skill(float(mu), float(sigma)), played, wins, name)


def _skill(guild_id: int, map_key: str, user_id: int, start: Skill) -> Work[Skill]:
    row = yield one(SKILL, guild_id=guild_id, map=map_key, user_id=user_id)
    return start if row is None else Skill(float(row[0]), float(row[1]))


class Ratings:
    """`RatingStore`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def record_rating(self, game: RatedGame, update: RatingUpdate, start: Skill) -> bool:
        """Rate the game unless it was already: False if it was (then nothing changes).

        The check, the new ratings (overall and the map's) and the results are one transaction.
        """

        def work() -> Work[bool]:
            yield scalar(LOCK_RATINGS, lock=RATING_LOCK, guild=str(game.guild_id))
            now = now_text()
            first = yield scalar(
                FIRST_RATING,
                game_id=game.game_id,
                guild_id=game.guild_id,
                map=game.map,
                kind=game.kind,
                rated=int(bool(game.seats)),
                rated_at=now,
            )
            if first is None:
                return False  # already considered
            if not game.seats:
                return True
            overall: Sequence[Skill] = ()
            for map_key in (OVERALL, game.map):
                before = []
                for s in game.seats:
                    before.append((yield from _skill(game.guild_id, map_key, s.user_id, start)))
                after = list(update(game.seats, before))
                if len(after) != len(before):
                    raise ValueError("the rating update must give one rating per member")
                if map_key == OVERALL:
                    overall = before
                for seat, skill in zip(game.seats, after, strict=True):
                    yield changed(
                        PUT_RATING,
                        guild_id=game.guild_id,
                        map=map_key,
                        user_id=seat.user_id,
                        mu=float(skill.mu),
                        sigma=float(skill.sigma),
                        wins=int(seat.place == 1),
                        display_name=seat.display_name,
                        updated_at=now,
                    )
                if map_key == OVERALL:
                    results = [
                        {
                            "game_id": game.game_id,
                            "user_id": s.user_id,
                            "place": s.place,
                            "score": s.score,
                            "tickets_done": s.tickets_done,
                            "tickets_total": s.tickets_total,
                            "mu_before": float(b.mu),
                            "sigma_before": float(b.sigma),
                            "mu_after": float(a.mu),
                            "sigma_after": float(a.sigma),
                        }
                        for s, b, a in zip(game.seats, overall, after, strict=True)
                    ]
                    yield many(INSERT_RESULT, results)
            return True

        return await self.backend.do_write(work)

    async def is_rated(self, game_id: int) -> bool:
        """Whether the ratings have taken this game into account (rated or left out)."""
        return await self.backend.fetch_one(IS_RATED, game_id=game_id) is not None

    async def ratings_page(self, guild_id: int, map_key: str, offset: int, limit: int) -> list[RatingRow]:
        """The server's ratings of one map (or OVERALL), highest conservative rating first."""
        found = await self.backend.fetch_all(RATINGS_PAGE, guild_id=guild_id, map=map_key, limit=limit, offset=offset)
        return [_rating(r) for r in found]

    async def ratings_count(self, guild_id: int, map_key: str) -> int:
        row = await self.backend.fetch_one(RATINGS_COUNT, guild_id=guild_id, map=map_key)
        return 0 if row is None else int(row[0])

    async def rating_rank(self, guild_id: int, map_key: str, user_id: int) -> int | None:
        """The member's place on the leaderboard (1 = top), None if unrated there."""
        found = await self.backend.fetch_all(BOARD_ORDER, guild_id=guild_id, map=map_key)
        return next((i + 1 for i, row in enumerate(found) if row[0] == user_id), None)

    async def member_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """The member's ratings in the server: overall and per map."""
        return [_rating(r) for r in await self.backend.fetch_all(MEMBER_RATINGS, guild_id=guild_id, user_id=user_id)]

    async def member_results(self, guild_id: int, user_id: int) -> list[ResultRow]:
        """The member's results in the server's rated games, oldest first."""
        return [ResultRow(*r) for r in await self.backend.fetch_all(MEMBER_RESULTS, guild_id=guild_id, user_id=user_id)]

    async def finished_unrated_since_setting(self, setting_key: str) -> list[int]:
        """Finished games not yet considered by the ratings, of servers whose `setting_key` is on (JSON true),
        that finished (last changed) after the setting was last set: oldest first."""
        return [int(r[0]) for r in await self.backend.fetch_all(FINISHED_UNRATED, key=setting_key)]
