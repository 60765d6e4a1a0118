"""The newest open tournaments of a server, for autocomplete: one bounded query, on both stores."""

from __future__ import annotations

from helpers.service_support import GUILD

from bot.service import GameService
from bot.service.tournaments.models import TournamentSettings
from bot.store.tournament_rows import TournamentStatus

MOD = 900
OPEN = (TournamentStatus.REGISTRATION, TournamentStatus.CHECKIN, TournamentStatus.RUNNING)


async def test_recent_tournaments_are_the_newest_in_the_statuses_asked_and_no_more(service: GameService) -> None:
    settings = TournamentSettings(("usa",), 2)
    made = [
        await service.tournaments.registration.create_tournament(GUILD, 100 + i, MOD, f"Cup {i}", settings)
        for i in range(8)
    ]
    await service.tournaments.registration.create_tournament(GUILD + 1, 100, MOD, "elsewhere", settings)
    await service.tournaments.registration.cancel_tournament(made[6].id, MOD)
    rows = await service.tournaments.desk.recent_tournaments(GUILD, OPEN, 5)
    assert [r.name for r in rows] == ["Cup 7", "Cup 5", "Cup 4", "Cup 3", "Cup 2"]
    assert all(r.status is TournamentStatus.REGISTRATION and r.guild_id == GUILD for r in rows)
    cancelled = await service.tournaments.desk.recent_tournaments(GUILD, [TournamentStatus.CANCELLED], 5)
    assert [r.id for r in cancelled] == [made[6].id]
    assert await service.tournaments.desk.recent_tournaments(GUILD, [], 5) == []
    assert await service.tournaments.desk.recent_tournaments(GUILD, OPEN, 0) == []
    assert len(await service.tournaments.desk.recent_tournaments(GUILD, OPEN, 100)) == 7
