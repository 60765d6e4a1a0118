"""A drop and a disqualification of one player sent at the same moment (two moderators, or a double click on two
commands): exactly one is done, the other is refused saying the player is out already, on both stores."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.present.i18n import speaking
from bot.present.refusals import refusal_text
from bot.service import NO_CLOCK, GameService, ServiceError, Why
from bot.service.kinds import Language
from bot.service.tournaments.models import TablePlan, TournamentAction, TournamentSettings
from bot.store.tournament_rows import ParticipantStatus

GUILD = 1
CHANNEL = 5000
MOD, OTHER_MOD = 900, 901
USERS = [100 + i for i in range(4)]
HUMANS = USERS[:2]  # they move for themselves: their game waits for them while the moderators act


async def running_tournament(service: GameService) -> int:
    settings = TournamentSettings(
        maps=("usa",), rounds=2, clock=NO_CLOCK, autopilot=tuple(USERS[2:]), rated=False, table_size=4
    )
    info = await service.tournaments.registration.create_tournament(GUILD, CHANNEL, MOD, "Cup", settings)
    await service.tournaments.registration.open_registration(info.id, MOD)
    for user in USERS:
        await service.tournaments.registration.join_tournament(info.id, user, f"p{user}")
    threads = itertools.count(7000)

    async def open_thread(plan: TablePlan) -> int:
        return next(threads)

    await service.tournaments.rounds.start_round(info.id, MOD, open_thread)
    return info.id


def split(outcomes: list[TournamentAction | BaseException]) -> tuple[list[TournamentAction], list[ServiceError]]:
    done = [o for o in outcomes if isinstance(o, TournamentAction)]
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(done) + len(refused) == len(outcomes), outcomes
    return done, refused


@pytest.mark.parametrize("disqualify_first", [False, True])
async def test_a_drop_and_a_disqualification_at_once_one_is_refused(
    service: GameService, disqualify_first: bool
) -> None:
    tid = await running_tournament(service)
    player = HUMANS[0]
    sanctions = service.tournaments.sanctions
    calls = [
        sanctions.drop(tid, MOD, player, "no show"),
        sanctions.disqualify(tid, OTHER_MOD, player, "cheating"),
    ]
    if disqualify_first:
        calls.reverse()
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    done, refused = split(list(outcomes))
    assert len(done) == 1 and len(refused) == 1, outcomes
    (error,) = refused
    assert error.why is Why.NOT_ACTIVE, error
    winner = done[0].action
    status = (await service.tournaments.desk.tournament(tid)).participant(player)
    assert status is not None
    expected = ParticipantStatus.DISQUALIFIED if winner == "disqualify" else ParticipantStatus.DROPPED
    assert status.status is expected and error.facts["status"] is expected
    # one sanction in the audit, and the player's seat handed to the autopilot once
    audit = await service.tournaments.export.tournament_audit(tid)
    assert [a["action"] for a in audit if a["action"] in ("drop", "disqualify")] == [winner]
    assert len(done[0].results) == 1

    texts = {}
    for language in Language:
        with speaking(language):
            texts[language] = refusal_text(ServiceError(error.why, {**error.facts, "name": "Åsa"}))
    word = {
        "drop": ("dropped them already", "redan strukit", "jo pudottanut"),
        "disqualify": ("disqualified them already", "redan diskvalificerat", "jo hylännyt"),
    }
    for language, expected_word in zip((Language.EN, Language.SV, Language.FI), word[winner], strict=True):
        assert "Åsa" in texts[language] and expected_word in texts[language], texts[language]
    assert len(set(texts.values())) == 3, texts
    reinstate = "/ttrtour reinstate" in texts[Language.EN]
    assert reinstate is (winner == "drop"), "a disqualification refused after a drop says how to do it"


async def test_a_drop_after_a_substitute_is_refused_as_out_already(service: GameService) -> None:
    tid = await running_tournament(service)
    sanctions = service.tournaments.sanctions
    outcomes = await asyncio.gather(
        sanctions.substitute(tid, MOD, HUMANS[1], 300, "sub"),
        sanctions.drop(tid, OTHER_MOD, HUMANS[1], "gone"),
        return_exceptions=True,
    )
    done, refused = split(list(outcomes))
    assert [d.action for d in done] == ["substitute"] and [r.why for r in refused] == [Why.NOT_ACTIVE]
