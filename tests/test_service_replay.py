"""The turns a replay can show: where each completed turn ends in the game's moves."""

from __future__ import annotations

from helpers.rules_support import dealt_game, finish_setup

from bot.service.replay import turn_ends
from engine import DrawCard, Game
from engine.autopilot import choose_move


def play_turns(game: Game, turns: int) -> Game:
    while game.state.turn < turns:
        to_move = game.to_move()
        assert to_move is not None
        game.apply(choose_move(game, to_move.player))
    return game


def test_each_completed_turn_ends_where_the_next_begins() -> None:
    game = play_turns(finish_setup(dealt_game("usa", 3, "replay")), 6)
    ends = turn_ends(game, over=False)
    assert len(ends) == 7  # before the first turn, then turns 1 to 6
    assert ends[0] == 3  # the three starting ticket choices
    for n, end in enumerate(ends):
        assert game.replay_until(end).state.turn == n  # after turn n, turn n + 1 (numbered n) begins
    assert ends[-1] == len(game.moves)


def test_a_turn_in_progress_is_not_shown_until_it_ends() -> None:
    game = play_turns(finish_setup(dealt_game("usa", 2, "replay")), 3)
    to_move = game.to_move()
    assert to_move is not None
    game.apply(DrawCard(to_move.player, "deck"))  # the first card of a turn: it goes on
    assert turn_ends(game, over=False) == turn_ends(game.replay_until(len(game.moves) - 1), over=False)
    # a game stopped there by a moderator: its last turn is over, and shown
    assert len(turn_ends(game, over=True)) == 5
