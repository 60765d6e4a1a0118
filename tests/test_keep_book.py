"""The expert's opening book: at its first keep in four-player USA it keeps the offered pair that won most."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations
from pathlib import Path

import pytest

import engine.expert as expert
from engine import Game, Keep
from engine.autopilot import choose_split
from engine.expert import Search, Share, choose_expert, own_tuning, search_share, searching
from engine.keep_book import BOOK_PATH, book_keep, pair_key
from engine.state import Pending
from engine.strong import choose_strong
from maps import load_board
from tests.test_autopilot_expert import hidden_anew

NO_TIME = Search(seed="book", worlds=4, work=10**6, time_limit=0.0)
SEARCH = Search(seed="book", worlds=8, work=10**6, time_limit=None)


def four_player_usa(seed: str, trains: int | None = None) -> tuple[Game, str]:
    game = Game(load_board("usa"), [f"p{i}" for i in range(4)], seed, trains=trains)
    return game, game.waiting_for()[0]


def offered(game: Game, name: str) -> list[int]:
    return list(game.state.players[game.seat(name)].offered or [])


def kept(game: Game, move: Keep) -> set[int]:
    refs = {game.ticket_ref(t): t for t in range(len(game.board.tickets))}
    return {refs[ref] for ref in move.tickets}


def write_book(path: Path, favourite: tuple[int, int], board_name: str = "usa", players: int = 4) -> Path:
    board = load_board("usa")
    wins = {pair_key(board, a, b): 0.25 for a, b in combinations(range(len(board.tickets)), 2)}
    wins[pair_key(board, *favourite)] = 0.75
    book = {"map": board_name, "players": players, "games": 10, "prefix": "t", "wins": wins}
    path.write_text(json.dumps(book), encoding="utf-8")
    return path


def test_the_book_holds_every_pair_of_usa_tickets_from_real_games() -> None:
    data = json.loads(BOOK_PATH.read_text(encoding="utf-8"))
    board = load_board("usa")
    pairs = {pair_key(board, a, b) for a, b in combinations(range(len(board.tickets)), 2)}
    assert (data["map"], data["players"]) == ("usa", 4)
    assert set(data["wins"]) == pairs
    assert data["games"] >= 100
    wins = list(data["wins"].values())
    assert all(0.0 <= w <= 1.0 for w in wins)
    # the pairs differ a great deal: the book's reason to be
    assert max(wins) - min(wins) > 0.3
    assert 0.25 < sum(wins) / len(wins) < 0.75


def test_it_keeps_the_offered_pair_that_won_most(tmp_path: Path) -> None:
    offer = offered(*four_player_usa("book-1"))
    for favourite in combinations(offer, 2):
        game, name = four_player_usa("book-1")
        path = write_book(tmp_path / f"{favourite[0]}-{favourite[1]}.json", favourite)
        move = book_keep(game, name, path)
        assert move is not None and move.player == name
        assert kept(game, move) == set(favourite)
        game.apply(move)  # a legal keep


def test_no_book_keep_where_the_book_was_not_measured(tmp_path: Path) -> None:
    game, name = four_player_usa("book-2")
    path = write_book(tmp_path / "book.json", (0, 1))
    assert book_keep(game, name, tmp_path / "none.json") is None
    assert book_keep(game, name, write_book(tmp_path / "two.json", (0, 1), players=2)) is None
    assert book_keep(game, name, write_book(tmp_path / "india.json", (0, 1), board_name="india")) is None
    few, few_name = four_player_usa("book-2", trains=30)
    assert book_keep(few, few_name, path) is None
    two = Game(load_board("usa"), ["a", "b"], "book-2")
    assert book_keep(two, two.waiting_for()[0], path) is None
    # a later keep (tickets drawn in play) is strong's
    for _ in range(300):
        if game.state.pending is Pending.KEEP:
            break
        who = game.waiting_for()[0]
        game.apply(choose_strong(game, who))
    assert game.state.pending is Pending.KEEP
    assert book_keep(game, game.waiting_for()[0], path) is None


def test_the_expert_starts_its_first_keep_from_the_book(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its first keep is the book's, unsearched (its move even with no time); often not strong's."""
    differs = 0
    for i in range(12):
        game, name = four_player_usa(f"book-3-{i}")
        book = book_keep(game, name)
        assert book is not None
        assert choose_expert(game, name, NO_TIME) == book
        assert search_share(game, name, SEARCH) == Share([book], None)
        differs += book != choose_strong(game, name, own_tuning(game))
    assert differs > 0
    monkeypatch.setattr(expert, "book_keep", lambda game, name: None)
    game, name = four_player_usa("book-3-0")
    assert choose_expert(game, name, NO_TIME) == choose_strong(game, name, own_tuning(game))


def test_the_book_reads_only_the_seat_own_offer() -> None:
    rng = random.Random(5)
    for i in range(6):
        game, name = four_player_usa(f"book-4-{i}")
        move = book_keep(game, name)
        for _ in range(3):
            assert book_keep(hidden_anew(game, name, rng), name) == move


def test_a_book_keep_is_no_search_and_no_split() -> None:
    game, name = four_player_usa("book-5")
    book = book_keep(game, name)
    assert book is not None
    assert not searching(game, name)
    with ThreadPoolExecutor(1) as workers:
        assert choose_split(game, name, SEARCH, workers, 2) == book
    game.apply(book)
    # the other seats' first keeps are the book's too, when the expert plays them
    other = game.waiting_for()[0]
    assert book_keep(game, other) is not None and not searching(game, other)
