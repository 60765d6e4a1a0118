"""The game service: every way to change or read a game, for any front end.

One class made of one part per concern, each in its own module:

- core.py: the store, each game's lock, the cache of live games, versioned writes
- runner.py: one action's moves, the autopilot's moves after it, the result
- lobby.py: create, join, leave, seat autopilot players, cancel, start
- play.py: a member's move
- reading.py: lookups, views, waiting, history, digest, clock status
- timers.py: what the scheduler (bot/scheduler.py) hands over when a timer is due
- moderation.py: pause, resume, extend, replace, autopilot, undo, end
- reopen.py: a game a moderator ended runs again as it was, for a while
- audit.py: the record and the full log (moderators' reads audited), the audit entries
- settings.py: each server's settings and who may moderate
- choices.py: what a player may choose now (card draws, routes to claim), why a claim cannot be made; a claim by route
- stages.py: the stage a game is in, as its stage message shows it
- images.py: the board and a player's private view, drawn off the event loop
- replay.py: the public board after any completed turn
- ratings.py: per-server OpenSkill ratings of finished games, the leaderboard, profiles
- front_records.py: what the Discord front end keeps: its messages, DM refusals, the commands last synced
- tournaments/service.py: tournaments (before ratings.py, so that a tournament's game is rated as a tournament
  game), itself one part per concern over tournaments/tour_core.py: registration.py, rounds.py (Swiss rounds of
  tables, each a game), results.py, sanctions.py, export.py

Everything it returns is data (bot/service/results.py, events.py, views.py);
bot/present words it.
"""

from __future__ import annotations

from bot.service.audit import AuditService
from bot.service.choices import MoveChoices
from bot.service.front_records import FrontRecords
from bot.service.images import Images
from bot.service.lobby import LobbyService
from bot.service.member_settings import MemberSettingsService
from bot.service.moderation import ModerationService
from bot.service.play import PlayService
from bot.service.ratings import RatingsService
from bot.service.reading import ReadingService
from bot.service.reopen import ReopenService
from bot.service.replay import Replays
from bot.service.stages import Stages
from bot.service.timers import TimerService
from bot.service.tournaments.service import TournamentService


class GameService(
    TournamentService,
    RatingsService,
    LobbyService,
    MoveChoices,
    PlayService,
    ReadingService,
    TimerService,
    ModerationService,
    ReopenService,
    AuditService,
    Stages,
    Replays,
    Images,
    FrontRecords,
    MemberSettingsService,
):
    """Create, join, start and play games; read views; moderate; export records. Knows nothing of Discord."""
