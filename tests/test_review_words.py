"""bot/present/review.py: the review's words in English, Swedish and Finnish, each map's own, numbers as written."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.present.i18n import speaking
from bot.present.review import (
    chart_words,
    move_phrase,
    percent_text,
    points_text,
    progress_text,
    review_refusal_text,
    review_summary,
    turn_pages,
)
from bot.service.kinds import Language
from bot.service.review import (
    GameReviewed,
    MoveKind,
    ReviewedMove,
    ReviewedTurn,
    ReviewProgress,
    ReviewRefused,
    ReviewWhy,
)
from maps import load_board
from tests.test_i18n_images import assert_written_in

FOREIGN = (Language.SV, Language.FI)
DECK = ReviewedMove(MoveKind.DECK)
RED = ReviewedMove(MoveKind.FACE_UP, "red")
TICKETS = ReviewedMove(MoveKind.TICKETS)


def claim(map_name: str) -> ReviewedMove:
    return ReviewedMove(MoveKind.CLAIM, route=load_board(map_name).routes[0].id)


def reviewed(map_name: str = "usa", seat: int | None = 0, turns: int = 60) -> GameReviewed:
    moves = [DECK, RED, TICKETS, claim(map_name)]
    shown = []
    for n in range(1, turns + 1):
        played, suggested = moves[n % 4], moves[(n * 3) % 4]
        same = played == suggested
        loss = 0.0 if same else (n % 7) - 2.5
        weighed = n < turns - 1  # the last two turns: out of time
        loss, worlds = (loss, 0 if same else 2) if weighed else (0.0, 0)
        shown.append(ReviewedTurn(n, (n - 1) % 2, played, suggested, same, loss, worlds, (0.5, 0.5), weighed))
    chances = tuple([(0.5, 0.5)] * turns + [(1.0, 0.0)])
    key = (5, 13, 41)
    return GameReviewed(7, map_name, ("ann", "bob"), seat, tuple(shown), key, chances, (90, 70), 2, 0, 2, 3.0)


def samples(map_name: str = "usa") -> list[str]:
    review = reviewed(map_name)
    words = chart_words(review)
    texts = [
        progress_text(None, 7),
        progress_text(ReviewProgress(7, 34, 117), 7),
        review_summary(review),
        review_summary(reviewed(map_name, seat=None)),
        *turn_pages(review),
        words.title,
        words.x_axis,
        words.y_axis,
        words.alt_text,
        *words.y_ticks,
    ]
    facts = {"game_id": 7, "hours": 24, "limit": 3, "retry_at": datetime(2026, 11, 27, tzinfo=UTC)}
    texts += [review_refusal_text(ReviewRefused(why, facts)) for why in ReviewWhy]
    return texts


@pytest.mark.parametrize("language", FOREIGN)
@pytest.mark.parametrize("map_name", ["usa", "amsterdam", "switzerland"])
def test_every_text_of_a_review_is_written_in_the_language(language: Language, map_name: str) -> None:
    english = samples(map_name)
    with speaking(language):
        texts = samples(map_name)
    assert_written_in(language, texts)
    assert not set(texts) & set(english)


def test_the_pages_keep_under_discords_limit_and_list_the_readers_turns() -> None:
    review = reviewed(turns=200)
    pages = turn_pages(review)
    assert len(pages) > 1 and all(len(page) <= 2000 for page in pages)
    joined = "\n".join(pages)
    assert joined.count("**Turn ") == 100 and "(bob)" not in joined
    assert joined.count("🔑") == 3
    everyone = "\n".join(turn_pages(reviewed(turns=200, seat=None)))
    assert everyone.count("**Turn ") == 200
    assert len(review_summary(review)) <= 2000
    assert "The review ran out of time: 2 turns at the end are not weighed." in review_summary(review)
    assert "not weighed: the review ran out of time" in pages[-1]


def test_each_maps_words_and_numbers_as_written() -> None:
    usa, india = load_board("usa"), load_board("india")
    assert move_phrase(usa, claim("usa")).startswith("the route ")
    assert points_text(3.5) == "3.5 points" and points_text(-1.0) == "1 point" and percent_text(0.42) == "42%"
    assert move_phrase(load_board("amsterdam"), TICKETS) == "2 contracts to choose from"
    with speaking(Language.SV):
        assert move_phrase(usa, claim("usa")).startswith("rutten ")  # the Swedish USA rulebook builds routes
        assert move_phrase(india, claim("india")).startswith("sträckan ")
        assert move_phrase(usa, RED) == "uppvänt kort: röd"
        assert points_text(3.5) == "3,5 poäng" and points_text(2) == "2 poäng" and percent_text(0.42) == "42 %"
    with speaking(Language.FI):
        assert move_phrase(usa, claim("usa")).startswith("reitti ")
        assert move_phrase(usa, DECK) == "kortti pakasta"
        assert points_text(3.5) == "3,5 pistettä" and points_text(1) == "1 piste" and percent_text(1.0) == "100 %"
        assert move_phrase(usa, TICKETS) == "3 menolippua valittavaksi"
