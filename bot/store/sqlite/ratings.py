"""On SQLite: the ratings, written once per game (the `rated_games` key, in the same transaction)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from bot.store.columns import Row, now_text
from bot.store.rating_rows import OVERALL, RatedGame, RatingRow, RatingUpdate, ResultRow, Skill
from bot.store.sqlite.core import SqliteCore

RATING_COLUMNS = "guild_id, map, user_id, mu, sigma, games, wins, display_name"
# the conservative rating (OpenSkill's ordinal), by which the leaderboard sorts
ORDINAL = "(mu - 3 * sigma)"


def _rating(row: Row) -> RatingRow:
    guild_id, map_key, user_id, mu, sigma, games, wins, name = row
    return RatingRow(int(guild_id), str(map_key), int(user_id), Skill(float(mu), float(sigma)), games, wins, name)


class SqliteRatings(SqliteCore):
    """`RatingStore` on SQLite."""

    async def record_rating(self, game: RatedGame, update: RatingUpdate, start: Skill) -> bool:
        """Rate the game unless it was already: False if it was (then nothing changes).

        The check, the new ratings (overall and the map's) and the results are one transaction.
        """

        def work(conn: sqlite3.Connection) -> bool:
            if conn.execute("SELECT 1 FROM rated_games WHERE game_id = ?", (game.game_id,)).fetchone():
                return False
            now = now_text()
            conn.execute(
                "INSERT INTO rated_games (game_id, guild_id, map, kind, rated, rated_at) VALUES (?, ?, ?, ?, ?, ?)",
                (game.game_id, game.guild_id, game.map, game.kind, int(bool(game.seats)), now),
            )
            if not game.seats:
                return True
            overall: Sequence[Skill] = ()
            for map_key in (OVERALL, game.map):
                before = [_skill(conn, game.guild_id, map_key, s.user_id, start) for s in game.seats]
                after = list(update(game.seats, before))
                if len(after) != len(before):
                    raise ValueError("the rating update must give one rating per member")
                if map_key == OVERALL:
                    overall = before
                for seat, skill in zip(game.seats, after, strict=True):
                    conn.execute(
                        f"INSERT INTO ratings ({RATING_COLUMNS}, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) "
                        "ON CONFLICT (guild_id, map, user_id) DO UPDATE SET mu = excluded.mu, "
                        "sigma = excluded.sigma, games = games + 1, wins = wins + excluded.wins, "
                        "display_name = excluded.display_name, updated_at = excluded.updated_at",
                        (
                            game.guild_id,
                            map_key,
                            seat.user_id,
                            skill.mu,
                            skill.sigma,
                            int(seat.place == 1),
                            seat.display_name,
                            now,
                        ),
                    )
                if map_key == OVERALL:
                    conn.executemany(
                        "INSERT INTO rating_results (game_id, user_id, place, score, tickets_done, tickets_total, "
                        "mu_before, sigma_before, mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [
                            (
                                game.game_id,
                                s.user_id,
                                s.place,
                                s.score,
                                s.tickets_done,
                                s.tickets_total,
                                b.mu,
                                b.sigma,
                                a.mu,
                                a.sigma,
                            )
                            for s, b, a in zip(game.seats, overall, after, strict=True)
                        ],
                    )
            return True

        return await self._write(work)

    async def is_rated(self, game_id: int) -> bool:
        """Whether the ratings have taken this game into account (rated or left out)."""
        found = await self._one(lambda row: True, "SELECT 1 FROM rated_games WHERE game_id = ?", (game_id,))
        return bool(found)

    async def ratings_page(self, guild_id: int, map_key: str, offset: int, limit: int) -> list[RatingRow]:
        """The server's ratings of one map (or OVERALL), highest conservative rating first."""
        return await self._all(
            _rating,
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND map = ? "
            f"ORDER BY {ORDINAL} DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, map_key, limit, offset),
        )

    async def ratings_count(self, guild_id: int, map_key: str) -> int:
        found = await self._one(
            lambda row: int(row[0]), "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND map = ?", (guild_id, map_key)
        )
        return found or 0

    async def rating_rank(self, guild_id: int, map_key: str, user_id: int) -> int | None:
        """The member's place on the leaderboard (1 = top), None if unrated there."""

        def work(conn: sqlite3.Connection) -> int | None:
            rows = conn.execute(
                f"SELECT user_id FROM ratings WHERE guild_id = ? AND map = ? ORDER BY {ORDINAL} DESC, games DESC, "
                "user_id",
                (guild_id, map_key),
            ).fetchall()
            return next((i + 1 for i, row in enumerate(rows) if row[0] == user_id), None)

        return await self._run(work)

    async def member_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """The member's ratings in the server: overall and per map."""
        return await self._all(
            _rating,
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY map",
            (guild_id, user_id),
        )

    async def member_results(self, guild_id: int, user_id: int) -> list[ResultRow]:
        """The member's results in the server's rated games, oldest first."""
        return await self._all(
            lambda row: ResultRow(*row),
            "SELECT r.game_id, g.map, r.place, r.score, r.tickets_done, r.tickets_total FROM rating_results r "
            "JOIN rated_games g ON g.game_id = r.game_id WHERE g.guild_id = ? AND r.user_id = ? ORDER BY r.game_id",
            (guild_id, user_id),
        )

    async def finished_unrated_since_setting(self, setting_key: str) -> list[int]:
        """Finished games not yet considered by the ratings, of servers whose `setting_key` is on (JSON true),
        that finished (last changed) after the setting was last set: oldest first."""
        return await self._all(
            lambda row: int(row[0]),
            "SELECT g.id FROM games g JOIN guild_settings s ON s.guild_id = g.guild_id AND s.key = ? "
            "WHERE g.status = 'finished' AND s.value = 'true' AND g.updated_at >= s.updated_at "
            "AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id) ORDER BY g.updated_at, g.id",
            (setting_key,),
        )


def _skill(conn: sqlite3.Connection, guild_id: int, map_key: str, user_id: int, start: Skill) -> Skill:
    row = conn.execute(
        "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND map = ? AND user_id = ?", (guild_id, map_key, user_id)
    ).fetchone()
    return start if row is None else Skill(float(row[0]), float(row[1]))
