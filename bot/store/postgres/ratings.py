"""On PostgreSQL: the ratings, written once per game (the `rated_games` key, in the same transaction).

Two processes may rate games of one server at once; each rating transaction
holds the server's advisory lock, so one reads the ratings the other wrote
(no lost update), as on SQLite where writes take turns.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.columns import Row, now_text
from bot.store.postgres.connection import Conn
from bot.store.postgres.core import PostgresCore
from bot.store.rating_rows import OVERALL, RatedGame, RatingRow, RatingUpdate, ResultRow, Skill

RATING_COLUMNS = "guild_id, map, user_id, mu, sigma, games, wins, display_name"
ORDINAL = "(mu - 3 * sigma)"
# the first key of the server's advisory lock while its ratings change ("Rate" in ASCII)
RATING_LOCK = 0x52617465


def _rating(row: Row) -> RatingRow:
    guild_id, map_key, user_id, mu, sigma, games, wins, name = row
    return RatingRow(int(guild_id), str(map_key), int(user_id), Skill(float(mu), float(sigma)), games, wins, name)


class PostgresRatings(PostgresCore):
    """`RatingStore` on PostgreSQL."""

    async def record_rating(self, game: RatedGame, update: RatingUpdate, start: Skill) -> bool:
        async def work(conn: Conn) -> bool:
            await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", RATING_LOCK, str(game.guild_id))
            now = now_text()
            first = await conn.fetchval(
                "INSERT INTO rated_games (game_id, guild_id, map, kind, rated, rated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                game.game_id,
                game.guild_id,
                game.map,
                game.kind,
                int(bool(game.seats)),
                now,
            )
            if first is None:
                return False  # already considered
            if not game.seats:
                return True
            overall: Sequence[Skill] = ()
            for map_key in (OVERALL, game.map):
                before = [await _skill(conn, game.guild_id, map_key, s.user_id, start) for s in game.seats]
                after = list(update(game.seats, before))
                if len(after) != len(before):
                    raise ValueError("the rating update must give one rating per member")
                if map_key == OVERALL:
                    overall = before
                for seat, skill in zip(game.seats, after, strict=True):
                    await conn.execute(
                        f"INSERT INTO ratings ({RATING_COLUMNS}, updated_at) "
                        "VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8) "
                        "ON CONFLICT (guild_id, map, user_id) DO UPDATE SET mu = excluded.mu, "
                        "sigma = excluded.sigma, games = ratings.games + 1, wins = ratings.wins + excluded.wins, "
                        "display_name = excluded.display_name, updated_at = excluded.updated_at",
                        game.guild_id,
                        map_key,
                        seat.user_id,
                        float(skill.mu),
                        float(skill.sigma),
                        int(seat.place == 1),
                        seat.display_name,
                        now,
                    )
                if map_key == OVERALL:
                    await conn.executemany(
                        "INSERT INTO rating_results (game_id, user_id, place, score, tickets_done, tickets_total, "
                        "mu_before, sigma_before, mu_after, sigma_after) "
                        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                        [
                            (
                                game.game_id,
                                s.user_id,
                                s.place,
                                s.score,
                                s.tickets_done,
                                s.tickets_total,
                                float(b.mu),
                                float(b.sigma),
                                float(a.mu),
                                float(a.sigma),
                            )
                            for s, b, a in zip(game.seats, overall, after, strict=True)
                        ],
                    )
            return True

        return await self._write(work)

    async def is_rated(self, game_id: int) -> bool:
        found = await self._one(lambda row: True, "SELECT 1 FROM rated_games WHERE game_id = $1", (game_id,))
        return bool(found)

    async def ratings_page(self, guild_id: int, map_key: str, offset: int, limit: int) -> list[RatingRow]:
        return await self._all(
            _rating,
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND map = $2 "
            f"ORDER BY {ORDINAL} DESC, games DESC, user_id LIMIT $3 OFFSET $4",
            (guild_id, map_key, limit, offset),
        )

    async def ratings_count(self, guild_id: int, map_key: str) -> int:
        found = await self._one(
            lambda row: int(row[0]),
            "SELECT COUNT(*) FROM ratings WHERE guild_id = $1 AND map = $2",
            (guild_id, map_key),
        )
        return found or 0

    async def rating_rank(self, guild_id: int, map_key: str, user_id: int) -> int | None:
        rows = await self._all(
            lambda row: int(row[0]),
            "SELECT user_id FROM ratings WHERE guild_id = $1 AND map = $2 "
            f"ORDER BY {ORDINAL} DESC, games DESC, user_id",
            (guild_id, map_key),
        )
        return next((i + 1 for i, found in enumerate(rows) if found == user_id), None)

    async def member_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        return await self._all(
            _rating,
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND user_id = $2 ORDER BY map",
            (guild_id, user_id),
        )

    async def member_results(self, guild_id: int, user_id: int) -> list[ResultRow]:
        return await self._all(
            lambda row: ResultRow(*row),
            "SELECT r.game_id, g.map, r.place, r.score, r.tickets_done, r.tickets_total FROM rating_results r "
            "JOIN rated_games g ON g.game_id = r.game_id WHERE g.guild_id = $1 AND r.user_id = $2 ORDER BY r.game_id",
            (guild_id, user_id),
        )

    async def finished_unrated_since_setting(self, setting_key: str) -> list[int]:
        return await self._all(
            lambda row: int(row[0]),
            "SELECT g.id FROM games g JOIN guild_settings s ON s.guild_id = g.guild_id AND s.key = $1 "
            "WHERE g.status = 'finished' AND s.value = 'true' AND g.updated_at >= s.updated_at "
            "AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id) ORDER BY g.updated_at, g.id",
            (setting_key,),
        )


async def _skill(conn: Conn, guild_id: int, map_key: str, user_id: int, start: Skill) -> Skill:
    row = await conn.fetchrow(
        "SELECT mu, sigma FROM ratings WHERE guild_id = $1 AND map = $2 AND user_id = $3", guild_id, map_key, user_id
    )
    return start if row is None else Skill(float(row[0]), float(row[1]))
