"""The game service: every way to change or read a game, for any front end.

One class made of one part per concern, each in its own module:

- core.py: the store, each game's lock, the cache of live games, versioned writes
- runner.py: one action's moves, the autopilot's moves after it, the result
- lobby.py: create, join, leave, seat autopilot players, cancel, start
- play.py: a member's move
- reading.py: lookups, views, waiting, history, digest, clock status, the record
- timers.py: what the scheduler (bot/scheduler.py) hands over when a timer is due
- moderation.py: pause, resume, extend, replace, autopilot, undo, end
- audit.py: moderators reading a game, the audit entries, the full log
- settings.py: each server's settings and who may moderate

Everything it returns is data (bot/service/results.py, events.py, views.py);
bot/present words it.
"""

from __future__ import annotations

from bot.service.audit import AuditService
from bot.service.lobby import LobbyService
from bot.service.moderation import ModerationService
from bot.service.play import PlayService
from bot.service.reading import ReadingService
from bot.service.timers import TimerService


class GameService(LobbyService, PlayService, ReadingService, TimerService, ModerationService, AuditService):
    """Create, join, start and play games; read views; moderate; export records. Knows nothing of Discord."""
