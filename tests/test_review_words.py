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
    Chance,
    GameReviewed,
    MoveKind,
    NotCounted,
    PlayerReview,
    ReviewedMove,
    ReviewedSpot,
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
    """Two players, a spot a turn (every fourth also a draw's luck), the last two turns out of time; bob's turns
    from 50 on played by the autopilot."""
    moves = [DECK, RED, TICKETS, claim(map_name)]
    board = load_board(map_name)
    keep = ReviewedMove(MoveKind.KEEP, tickets=(0, 1))
    spots = [ReviewedSpot(0, 0, keep, keep, True, True, Chance.DEAL, 0.5, 0.5, 0.03, None, 2)]
    for n in range(1, turns + 1):
        played, expert = moves[n % 4], moves[(n * 3) % 4]
        same = played == expert
        weighed = n < turns - 1  # the last two turns: out of time
        seat_n = (n - 1) % 2
        win_played = 0.2 + 0.01 * (n % 30)
        win_expert = win_played + (0.0 if same else ((n % 7) - 2.5) / 40)
        chance = Chance.DECK if played == DECK else None
        away = NotCounted.AUTOPILOT if seat_n == 1 and n >= 50 else None
        spots.append(
            ReviewedSpot(
                n, seat_n, played, expert, same, True, chance,
                win_expert if weighed else None, win_played if weighed else None,
                (0.04 if n % 8 else -0.06) if chance and weighed else None, away, 2 if weighed else 0, weighed,
            )
        )  # fmt: skip
    assert board
    players = (
        PlayerReview(0, 30, 81.5, 3, 1, 1, -12.4, ((Chance.DECK, -9.6), (Chance.DEAL, 3.0)), (5, 13, 41), 0),
        PlayerReview(1, 24, 90.25, 1, 0, 0, 4.0, ((Chance.DECK, 2.0), (Chance.FACE_UP, -1.0)), (8,), 6),
    )
    chances = tuple([(0.5, 0.5)] * turns + [(1.0, 0.0)])
    return GameReviewed(7, map_name, ("ann", "bob"), seat, tuple(spots), players, chances, (90, 70), 2, 0, 2, 3.0)


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
    assert words.bars is not None
    texts += [words.bars.title, words.bars.luck, words.bars.choices]
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
    assert "The review ran out of time: 2 moves at the end are not weighed." in review_summary(review)
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
