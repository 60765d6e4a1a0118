"""Per-server ratings with OpenSkill's Plackett-Luce model: rating finished games, the leaderboard, profiles.

What is rated
- A game that ended by the rules (not one a moderator ended, scored or abandoned: an abandoned game
  has no result, and a game a moderator scored early can be reopened). Casual games only when the
  server turned `rated_casual` on; a tournament (later) calls `rate_game(game_id, rated=True,
  kind="tournament")` for its games, whatever that setting says (and `ended_by_moderator=True`
  for a table it adjudicated).
- Only members are rated. Autopilot players that filled empty seats are left out: the members keep
  their order among themselves (a member behind an autopilot player and ahead of another member is
  rated as second of the two). A game with fewer than two members at the end is not rated (it is
  noted as considered, so it is not looked at again).
- A seat handed to another member (`/ttrmod replace`) counts for the member who held it at the end,
  and a member's seat the autopilot played (handed over, or after timeouts) still counts for them.

The order: final standings as the rules decide the winner (docs/rules.md, "The winner"): points, then
completed tickets, then (on maps with the longest-path bonus) holding that bonus; members equal on all
of these share a place (OpenSkill's ties).

Each game is rated exactly once: the store writes the ratings and a `rated_games` row keyed by the
game in one transaction, and refuses a second time. The game's last move commits before the rating;
should the bot stop between them, `rate_pending` (at start-up) rates the finished games of servers
with `rated_casual` on that changed after the setting was last set and are not rated yet.

Every rated game updates two ratings of each member: the server's overall one and the one of the
game's map (the per-map leaderboard ranks by that).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.service.checks import check_id
from bot.service.core import ServiceCore
from bot.service.errors import IdKind, InvalidInput, Why
from bot.service.game_end import GameEnd
from bot.service.models import GameInfo, is_bot
from bot.service.names import known_name
from bot.service.settings import RATED_CASUAL, SettingsService
from bot.store import GameStatus
from bot.store.protocols import RatingStore
from bot.store.rating_rows import OVERALL, RatedGame, RatedSeat, RatingRow, Skill
from engine import Game
from engine.scoring import PlayerScore
from maps import MAP_NAMES

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
START = Skill(MODEL.mu, MODEL.sigma)
PAGE_SIZE = 15  # leaderboard lines per page

# The one number members see, on the leaderboard, in a profile, everywhere: the conservative rating
# 40 (mu - 3 sigma) (OpenSkill's ordinal, times 40), what the games so far show a member surely plays at. A new
# member has 0; it grows as games make the rating sure, faster with good places, and bad places take it down.
# (shown_rating and shown_uncertainty, 1000 + 40 (mu - 25) and 40 * 3 sigma, are its two parts: their difference.)
SCALE = 40.0
CENTRE = 1000.0


def shown_rating(skill: Skill) -> int:
    return round(CENTRE + SCALE * (skill.mu - START.mu))


def shown_uncertainty(skill: Skill) -> int:
    return round(SCALE * 3 * skill.sigma)


def shown_ordinal(skill: Skill) -> int:
    return round(SCALE * (skill.mu - 3 * skill.sigma))


def standing_key(score: PlayerScore, longest_bonus: bool) -> tuple[int, int, int]:
    """Higher is better: points, then tickets completed, then holding the longest-path bonus (the rules' order)."""
    holds = int(longest_bonus and score.bonus.get("longest", 0) > 0)
    return (score.total, score.completed, holds)


def placings(scores: Sequence[PlayerScore], longest_bonus: bool) -> list[int]:
    """Each player's place (1 = first), in the order of `scores`; players equal on every tie-break share it."""
    keys = [standing_key(s, longest_bonus) for s in scores]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def update(seats: Sequence[RatedSeat], before: Sequence[Skill]) -> list[Skill]:
    """The members' ratings after the game: Plackett-Luce, one member per team, ranks = places (ties shared)."""
    teams = [[MODEL.rating(mu=b.mu, sigma=b.sigma)] for b in before]
    rated = MODEL.rate(teams, ranks=[float(s.place) for s in seats])
    return [Skill(float(team[0].mu), float(team[0].sigma)) for team in rated]


def rated_seats(info: GameInfo, game: Game) -> tuple[RatedSeat, ...]:
    """The members' results (autopilot players left out), places counted among the members only."""
    scores = game.score()
    longest_bonus = game.rules.longest_bonus > 0
    by_player = {seat.player: seat for seat in info.seats}
    members = [(s, by_player.get(s.name)) for s in scores]
    kept = [(score, seat) for score, seat in members if seat is not None and not is_bot(seat.user_id)]
    places = placings([score for score, _ in kept], longest_bonus)
    return tuple(
        RatedSeat(
            user_id=seat.user_id,
            display_name=seat.display_name,
            place=place,
            score=score.total,
            tickets_done=score.completed,
            tickets_total=score.completed + score.failed,
        )
        for (score, seat), place in zip(kept, places, strict=True)
    )


@dataclass(frozen=True)
class LeaderLine:
    rank: int
    user_id: int
    display_name: str
    ordinal: int  # the conservative rating on the shown scale
    games: int
    wins: int


@dataclass(frozen=True)
class Leaderboard:
    guild_id: int
    map: str | None  # None: all maps
    page: int  # 1-based
    pages: int  # at least 1
    lines: tuple[LeaderLine, ...]  # empty: nobody is rated yet


@dataclass(frozen=True)
class Profile:
    guild_id: int
    user_id: int
    rating: int | None  # the one number the leaderboard shows (shown_ordinal); None: not rated in this server yet
    rank: int | None  # on the overall leaderboard, shared with members of the same number
    games: int  # rated games
    wins: int
    favourite_map: str | None  # the map of most rated games (the latest of equals)
    average_score: float | None
    tickets_done: int
    tickets_total: int

    @property
    def ticket_share(self) -> float | None:
        return None if self.tickets_total == 0 else self.tickets_done / self.tickets_total


class RatingsService:
    """Rate finished games once, and read the server's leaderboards and members' profiles."""

    def __init__(self, core: ServiceCore, rating_store: RatingStore, settings: SettingsService) -> None:
        self.core = core
        self.rating_store = rating_store
        self.settings = settings

    async def rate_game(
        self, game_id: int, *, rated: bool, kind: str = "casual", ended_by_moderator: bool = False
    ) -> bool:
        """Take a finished game into the server's ratings if `rated`; whether this call rated it.

        A second call for the same game changes nothing (False). Not rated: a game that is not
        finished (an abandoned one included), one a moderator ended unless `ended_by_moderator`
        (a tournament's adjudication), and, recorded as considered, one with fewer than two members.
        """
        if not rated:
            return False
        live = await self.core.locked(game_id, lambda: self.core.live(game_id))
        return await self.rate(live.info, live.game, kind, ended_by_moderator=ended_by_moderator)

    async def rate(self, info: GameInfo, game: Game | None, kind: str, *, ended_by_moderator: bool = False) -> bool:
        if game is None or info.status is not GameStatus.FINISHED:
            return False
        if not game.finished and not ended_by_moderator:
            return False
        seats = rated_seats(info, game)
        if len(seats) < 2:
            seats = ()
        return await self.rating_store.record_rating(
            RatedGame(info.id, info.guild_id, info.map, kind, seats), update, START
        )

    async def game_ended(self, end: GameEnd) -> bool:
        """A game ended (the caller holds its lock): one ended by the rules is rated if the server rates casual
        games (a tournament's table never comes here: the tournaments take its end first)."""
        info, game = end.info, end.game
        if end.by_moderator or game is None:
            return False
        try:
            config = await self.settings.guild_config(info.guild_id)
            if config.rated_casual:
                await self.rate(info, game, "casual")
        except Exception:
            log.exception("game #%d: could not rate it now; it is rated at the next start", info.id)
        return False

    async def rate_pending(self) -> int:
        """Rate the finished games a stop left unrated (see the module's notes); how many were rated."""
        done = 0
        for game_id in await self.rating_store.finished_unrated_since_setting(RATED_CASUAL):
            try:
                done += await self.rate_game(game_id, rated=True)
            except Exception:
                log.exception("game #%d: could not rate it", game_id)
        return done

    async def leaderboard(self, guild_id: int, map_name: str | None = None, page: int = 1) -> Leaderboard:
        """One page of the server's leaderboard (overall, or of one map); InvalidInput for a page it lacks."""
        guild_id = check_id(guild_id, IdKind.SERVER)
        if map_name is not None and map_name not in MAP_NAMES:
            raise InvalidInput(Why.UNKNOWN_MAP, {"map": map_name, "maps": MAP_NAMES})
        key = OVERALL if map_name is None else map_name
        count = await self.rating_store.ratings_count(guild_id, key)
        pages = max(1, math.ceil(count / PAGE_SIZE))
        if isinstance(page, bool) or not isinstance(page, int) or not 1 <= page <= pages:
            raise InvalidInput(Why.BAD_PAGE, {"page": page, "pages": pages})
        # every row, so that members with the same number share a rank across pages (a server's members: few)
        lines = ranked(await self.rating_store.ratings_page(guild_id, key, 0, count)) if count else []
        return Leaderboard(guild_id, map_name, page, pages, tuple(lines[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]))

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        """A member's rating and record in the server's rated games."""
        guild_id = check_id(guild_id, IdKind.SERVER)
        user_id = check_id(user_id, IdKind.USER)
        ratings = {r.map: r for r in await self.rating_store.member_ratings(guild_id, user_id)}
        results = await self.rating_store.member_results(guild_id, user_id)
        overall = ratings.get(OVERALL)
        counts: dict[str, tuple[int, int]] = {}
        for r in results:
            counts[r.map] = (counts.get(r.map, (0, 0))[0] + 1, r.game_id)
        favourite = max(counts, key=lambda m: counts[m]) if counts else None
        line = None if overall is None else await self._overall_line(guild_id, user_id)
        return Profile(
            guild_id,
            user_id,
            None if line is None else line.ordinal,
            None if line is None else line.rank,
            len(results),
            sum(1 for r in results if r.place == 1),
            favourite,
            sum(r.score for r in results) / len(results) if results else None,
            sum(r.tickets_done for r in results),
            sum(r.tickets_total for r in results),
        )

    async def _overall_line(self, guild_id: int, user_id: int) -> LeaderLine | None:
        """The member's line of the overall leaderboard (number and rank as the leaderboard shows them)."""
        count = await self.rating_store.ratings_count(guild_id, OVERALL)
        lines = ranked(await self.rating_store.ratings_page(guild_id, OVERALL, 0, count)) if count else []
        return next((line for line in lines if line.user_id == user_id), None)

    async def rating_of(self, guild_id: int, user_id: int, map_name: str | None = None) -> Skill | None:
        """A member's rating (overall, or of one map) as OpenSkill has it; None if unrated."""
        key = OVERALL if map_name is None else map_name
        found = [r for r in await self.rating_store.member_ratings(guild_id, user_id) if r.map == key]
        return found[0].skill if found else None

    async def is_rated(self, game_id: int) -> bool:
        return await self.rating_store.is_rated(check_id(game_id, IdKind.GAME))


def ranked(rows: Sequence[RatingRow]) -> list[LeaderLine]:
    """The leaderboard's lines of `rows` (best first, as the store orders them): members whose shown number is the
    same share its rank ("1, 1, 3"), so that the number and the rank never disagree."""
    lines: list[LeaderLine] = []
    for i, row in enumerate(rows):
        number = shown_ordinal(row.skill)
        rank = lines[-1].rank if lines and lines[-1].ordinal == number else i + 1
        name = known_name(row.display_name, row.user_id)  # two members without a visible name differ
        lines.append(LeaderLine(rank, row.user_id, name, number, row.games, row.wins))
    return lines


__all__ = ["LeaderLine", "Leaderboard", "Profile", "RatingsService", "placings", "ranked", "update"]
