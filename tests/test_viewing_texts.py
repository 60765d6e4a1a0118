"""The texts of looking at games: history pages, how a tie was broken."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.present.image_words import IMAGE_WORDS
from bot.present.paging import pages
from bot.present.stage import final_content
from bot.present.status import status_text
from bot.service import GameInfo
from bot.service.scores import final_scores
from bot.service.views import public_view
from bot.store import GameStatus
from engine import Game, TieRule
from engine.record import parse_record, replay
from render import render_board, render_final


def page_of(text: str) -> tuple[int, int]:
    match = re.search(r"page (\d+) of (\d+)\s*$", text)
    assert match, text
    return int(match.group(1)), int(match.group(2))


def test_pages_fit_a_message_and_keep_every_line() -> None:
    lines = [f"**Turn {n}:** " + "alice claims a long route. " * (n % 7 + 1) for n in range(300)]
    texts = pages(lines)
    assert len(texts) > 5 and all(len(t) <= 2000 for t in texts)
    assert [page_of(t) for t in texts] == [(n, len(texts)) for n in range(1, len(texts) + 1)]
    assert sum(t.count("**Turn ") for t in texts) == 300
    assert pages([]) == ["\n-# page 1 of 1"]


# ----- ties --------------------------------------------------------------------------------------

RECORDS = Path(__file__).parent / "records"


def recorded(name: str) -> Game:
    return replay(parse_record(json.loads((RECORDS / name).read_text(encoding="utf-8"))))


@pytest.mark.parametrize(
    ("record", "rule", "sentence"),
    [
        ("switzerland/v01_3p_full.json", TieRule.TICKETS, "p 7 and cid 77; cid wins on 5 tickets done to 4."),
        ("san_francisco/v04_4p_t9.json", TieRule.TICKETS, "ann, eve and dee 1; dee wins on 1 ticket done to 0 and 0."),
        (
            "usa/v01_4p_t10.json",
            TieRule.LONGEST,
            "ann and eve -11 with 0 tickets done each; ann wins with the longest continuous path bonus",
        ),
        (
            "india/v02_3p_t3.json",
            TieRule.SHARED,
            (
                "ann and dee 2 with 0 tickets done each, and the Indian Express bonus does not part them: "
                "ann and dee share the victory."
            ),
        ),
        (
            "switzerland/v02_3p_t3.json",
            TieRule.SHARED,
            (
                "cid and Zoë 6 with 0 tickets done each, and the longest continuous path bonus does not part them: "
                "cid and Zoë share the victory."
            ),
        ),
    ],
)
def test_a_tie_is_explained_in_the_final_message_and_image(record: str, rule: TieRule, sentence: str) -> None:
    game = recorded(record)
    tie = game.tie_break()
    assert tie is not None and tie.rule is rule and list(tie.winners) == game.winners()
    info = GameInfo(1, 2, 3, 4, game.board.name, GameStatus.FINISHED, 1, 5, None, (), datetime.now(UTC))
    scores = final_scores(info, game)
    assert scores.tie == tie
    assert sentence in final_content(info, "", scores)
    assert sentence in render_final(game, words=IMAGE_WORDS).alt_text


def test_without_a_tie_nothing_is_explained() -> None:
    game = recorded("usa/v03_4p_full.json")
    assert game.tie_break() is None
    info = GameInfo(1, 2, 3, 4, "usa", GameStatus.FINISHED, 1, 5, None, (), datetime.now(UTC))
    assert final_scores(info, game).tie is None
    assert " wins on " not in final_content(info, "", final_scores(info, game))
    assert "share the victory" not in render_final(game, words=IMAGE_WORDS).alt_text


# ----- the longest path during play --------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "scored"), [("usa/v37_5p_stop_keep.json", True), ("amsterdam/v35_2p_stop_turn.json", False)]
)
def test_the_longest_path_is_shown_during_play_where_it_scores(record: str, scored: bool) -> None:
    game = recorded(record)
    assert not game.finished and any(p.routes for p in game.state.players)
    info = GameInfo(1, 2, 3, 4, game.board.name, GameStatus.PLAYING, 1, 5, None, (), datetime.now(UTC))
    view = public_view(info, game)
    assert view.table is not None
    lengths = [p.longest for p in view.table.players]
    status = status_text(info, view, game.rules)
    alt = render_board(game, words=IMAGE_WORDS).alt_text
    if scored:
        assert lengths == [game.longest(seat)[0] for seat in range(len(lengths))] and max(lengths) > 0
        for length in lengths:
            assert f"longest path {length}" in status and f"longest path {length}" in alt
    else:
        assert lengths == [None] * len(lengths)
        assert "longest path" not in status and "longest path" not in alt
