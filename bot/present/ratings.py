"""The words of the ratings: the leaderboard, a member's profile, the rated_casual switch."""

from __future__ import annotations

from bot.present.seats import member_name
from bot.service.ratings import Leaderboard, LeaderLine, Profile
from maps import load_board

LEADERBOARD_BUTTONS = ("Higher", "Lower")

SCALE_NOTE = (
    "Ratings are OpenSkill (Plackett-Luce): a new member starts at 1000 ± 1000; the leaderboard ranks by the "
    "rating minus its uncertainty (0 for a new member), which grows as the games make the rating sure."
)


def map_title(map_name: str | None) -> str:
    return "all maps" if map_name is None else load_board(map_name).rules.title


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def leader_line(line: LeaderLine) -> str:
    return (
        f"{line.rank}. {member_name(line.display_name)}: **{line.ordinal}** "
        f"({_plural(line.games, 'game')}, {_plural(line.wins, 'win')})"
    )


def leaderboard_text(board: Leaderboard) -> str:
    """One page of the leaderboard, with its heading and page number."""
    head = f"**Leaderboard of this server, {map_title(board.map)}**"
    if not board.lines:
        return f"{head}\nNobody is rated yet: rated games are tournament games, and casual games if the server " + (
            "turned that on (`/ttr config rated_casual:on`)."
        )
    body = "\n".join(leader_line(line) for line in board.lines)
    return f"{head}\n{body}\n\n-# page {board.page} of {board.pages}. {SCALE_NOTE}"


def _percent(share: float) -> str:
    return f"{round(100 * share)}%"


def profile_text(profile: Profile, display_name: str) -> str:
    """A member's rating and record in this server's rated games."""
    name = member_name(display_name)
    if profile.rating is None or profile.uncertainty is None:
        return f"**{name}** has no rated game in this server yet."
    rank = "" if profile.rank is None else f" (#{profile.rank} on the leaderboard)"
    lines = [
        f"**{name}**",
        f"Rating: **{profile.rating} ± {profile.uncertainty}**{rank}",
        f"Rated games: {profile.games}, {_plural(profile.wins, 'win')}",
    ]
    if profile.favourite_map is not None:
        lines.append(f"Favourite map: {map_title(profile.favourite_map)}")
    if profile.average_score is not None:
        lines.append(f"Average score: {profile.average_score:.1f}")
    share = profile.ticket_share
    if share is not None:
        lines.append(f"Tickets completed: {_percent(share)} ({profile.tickets_done} of {profile.tickets_total})")
    lines.append(f"-# {SCALE_NOTE}")
    return "\n".join(lines)


def rated_switch_text() -> str:
    return "`rated_casual` is `on` or `off`: nothing was changed."
