"""bot/present/review.py: the review's words in English, Swedish and Finnish, each map's own, numbers as written."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.present.escape import shown
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
from bot.present.review_lines import turn_line
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


@pytest.mark.parametrize("language", [Language.EN, *FOREIGN])
def test_the_summary_gives_the_figures_the_chart_draws(language: Language) -> None:
    """Each player's luck and choices are written in the summary and the alt text exactly as the chart's bars
    label them; the turn list marks the autopilot's turns and never names the same move as the expert's other."""
    review = reviewed()
    with speaking(language):
        words = chart_words(review)
        summary = review_summary(review)
        pages = "\n".join(turn_pages(reviewed(seat=None)))
        same_line = move_phrase(load_board("usa"), DECK)
    assert words.bars is not None
    assert words.bars.values == tuple((p.luck_total, p.choices) for p in review.players)
    for luck, choices in words.bars.labels:
        assert f" {luck} (" in summary and f" {choices}" in summary
        assert luck in words.alt_text and choices in words.alt_text
    assert words.bars.labels == (("−7", "−12"), ("+1", "+4"))  # -9.6 + 3.0 rounds to -7; 2.0 - 1.0 to +1
    assert "−7" in summary and "−12" in summary
    for line in pages.splitlines()[1:]:
        assert line.count(same_line) <= 1, line  # a card from the deck is never shown against itself
    away = [
        line
        for line in pages.splitlines()
        if "(bob)" in line and any(f"**{w} 5" in line for w in ("Turn", "Tur", "Vuoro"))
    ]
    assert len(away) == 5  # bob's turns 50, 52, ... 58: the autopilot's
    assert all(("autopilot" in line) for line in away)


def test_a_move_the_service_shows_alike_is_the_experts() -> None:
    """Two claims of one route paid otherwise are one move to a reader: no loss, "as the expert would"."""
    from dataclasses import replace as changed

    from bot.service.review_shown import as_shown as _as_shown
    from bot.service.review_shown import reviewed_spot as _reviewed
    from engine.moves import Claim
    from engine.review import Chance as EngineChance
    from engine.review import SpotReview

    board = load_board("usa")
    route = board.routes[0]
    played = Claim("ann", route.a, route.b, {"red": 1})  # type: ignore[arg-type]
    expert = changed(played, pay={"locomotive": 1})
    spot = SpotReview(3, 0, 7, "ann", played, expert, True, EngineChance.DECK, 2, 0.6, 0.4, 0.0)
    assert spot.loss > 0 and not spot.same
    shown_spot = _reviewed(board, _as_shown(board, spot), None)
    assert shown_spot.played == shown_spot.expert and shown_spot.same and shown_spot.loss == 0
    with speaking(Language.SV):
        group = (shown_spot,)
        line = turn_line(board, reviewed(), group)
    assert "som experten skulle" in line and "experten:" not in line
    other = changed(spot, expert=Claim("ann", board.routes[1].a, board.routes[1].b, {"red": 1}))  # type: ignore[arg-type]
    assert not _reviewed(board, _as_shown(board, other), None).same


@pytest.mark.parametrize("language", [Language.EN, *FOREIGN])
def test_five_players_with_long_names_fit_one_message(language: Language) -> None:
    """Every player's figures stay; the method note and the list of the reader's costliest decisions give way
    (docs/players.md has the one, their own line names the other) when the message would be too long."""
    from dataclasses import replace as changed

    base = reviewed()
    names = tuple("Wilhelmina-Charlotta von Essen " + str(i) for i in range(5))
    players = tuple(changed(base.players[i % 2], seat=i, costliest=(5, 13, 41)) for i in range(5))
    review = changed(base, names=names, players=players)
    with speaking(language):
        text = review_summary(review)
    assert len(text) <= 2000
    assert all(f"**{shown(name)}" in text for name in names)
    assert text.count("\n- ") >= 10
