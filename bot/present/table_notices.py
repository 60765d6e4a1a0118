"""The short notices of a game played at its table (one live message in the channel, edited after every move):
the line that tells the member to move it is their turn, with a link to the table, and the reminders alike."""

from __future__ import annotations

from bot.present.i18n import _
from bot.present.names import map_title_of
from bot.service import GameInfo


def turn_notice_text(info: GameInfo, user_id: int, url: str) -> str:
    """The one line a turn posts in the channel: it mentions the member to move and links to the table."""
    return _("<@{user}>, your turn in game #{id} ({title}): {url}").format(
        user=user_id, id=info.id, title=map_title_of(info.title), url=url
    )


def reminder_notice_text(user_id: int, reminder: str, url: str) -> str:
    """A reminder posted in the channel (for a member who takes no DMs): the mention, the reminder, the table."""
    return f"<@{user_id}> {reminder} {url}"


def log_thread_name(info: GameInfo) -> str:
    """The name of a game's log thread (`/ttr config log_thread`): a line per turn in it."""
    return _("Game #{id} ({title}): the moves").format(id=info.id, title=map_title_of(info.title))
