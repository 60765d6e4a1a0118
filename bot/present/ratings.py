"""The words of the ratings: the leaderboard, a member's profile, the rated_casual switch."""

from __future__ import annotations

from bot.present.i18n import _, ngettext, pgettext
from bot.present.names import map_title as title_of_map
from bot.present.seats import member_name
from bot.service.ratings import Leaderboard, LeaderLine, Profile
from maps import load_board


def leaderboard_buttons() -> tuple[str, str]:
    """The leaderboard's paging buttons: to higher ranks, to lower ranks."""
    return pgettext("button", "Higher"), pgettext("button", "Lower")


def scale_note() -> str:
    """The rating in words a player understands: one number, the same on the leaderboard and in a profile."""
    return _(
        "A rating is what your rated games show you surely play at: everyone starts at 0, good places raise it, "
        "bad ones lower it, and every game makes it surer, so it grows as you play. Equal ratings share a place."
    )


def map_title(map_name: str | None) -> str:
    return _("all maps") if map_name is None else title_of_map(load_board(map_name).rules)


def _games(count: int) -> str:
    return ngettext("{count} game", "{count} games", count).format(count=count)


def _wins(count: int) -> str:
    return ngettext("{count} win", "{count} wins", count).format(count=count)


def leader_line(line: LeaderLine) -> str:
    return _("{rank}. {name}: **{rating}** ({games}, {wins})").format(
        rank=line.rank,
        name=member_name(line.display_name),
        rating=line.ordinal,
        games=_games(line.games),
        wins=_wins(line.wins),
    )


def leaderboard_text(board: Leaderboard) -> str:
    """One page of the leaderboard, with its heading and page number."""
    head = _("**Leaderboard of this server, {map}**").format(map=map_title(board.map))
    if not board.lines:
        return (
            head
            + "\n"
            + _(
                "Nobody is rated yet: rated games are tournament games, and casual games if the server "
                "turned that on (`/ttr config rated_casual:on`)."
            )
        )
    body = "\n".join(leader_line(line) for line in board.lines)
    page = _("page {page} of {pages}.").format(page=board.page, pages=board.pages)
    return f"{head}\n{body}\n\n-# {page} {scale_note()}"


def _percent(share: float) -> str:
    return f"{round(100 * share)}%"


def profile_text(profile: Profile, display_name: str) -> str:
    """A member's rating and record in this server's rated games."""
    name = member_name(display_name)
    if profile.rating is None:
        return _("**{name}** has no rated game in this server yet.").format(name=name)
    if profile.rank is None:
        rating = _("Rating: **{rating}**")
    else:
        rating = _("Rating: **{rating}** (#{rank} on the leaderboard)")
    lines = [
        f"**{name}**",
        rating.format(rating=profile.rating, rank=profile.rank),
        _("Rated games: {count}, {wins}").format(count=profile.games, wins=_wins(profile.wins)),
    ]
    if profile.favourite_map is not None:
        lines.append(_("Favourite map: {map}").format(map=map_title(profile.favourite_map)))
    if profile.average_score is not None:
        lines.append(_("Average score: {score}").format(score=f"{profile.average_score:.1f}"))
    share = profile.ticket_share
    if share is not None:
        lines.append(
            _("Tickets completed: {percent} ({done} of {total})").format(
                percent=_percent(share), done=profile.tickets_done, total=profile.tickets_total
            )
        )
    lines.append(f"-# {scale_note()}")
    return "\n".join(lines)


def rated_switch_text() -> str:
    return _("`rated_casual` is `on` or `off`: nothing was changed.")
