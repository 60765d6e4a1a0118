"""Plain-text descriptions of each image, for screen readers (Discord's alt text).

Discord keeps at most 1,024 characters of an attachment's description, so
sentences are added most important first and the rest is left out whole.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import Game
from render import describe
from render.board import last_move_route
from render.final import longest_holders, longest_path_routes, score_rows, tie_note
from render.palette import player_style
from render.private import ticket_lines
from render.words import ImageWords

LIMIT = 1024


def fit_sentences(sentences: list[str], limit: int = LIMIT) -> str:
    out = ""
    for sentence in sentences:
        candidate = f"{out} {sentence}".strip()
        if len(candidate) > limit:
            break
        out = candidate
    return out


def _players(game: Game, words: ImageWords, labels: Mapping[int, str] | None = None) -> str:
    entries = [
        words.player_entry(
            game.rules,
            describe.player_name(game, seat, words, labels),
            player_style(seat),
            p,
            describe.longest_path(game, seat),
        )
        for seat, p in enumerate(game.state.players)
    ]
    return words.players_sentence(entries)


def _cards(game: Game, words: ImageWords) -> str:
    piles = game.state.piles
    return words.cards_sentence(
        game.rules, piles.face_up, len(piles.deck), len(piles.discard), len(game.state.ticket_deck)
    )


def board_alt(game: Game, words: ImageWords, labels: Mapping[int, str] | None = None) -> str:
    last = describe.last_move(game, words)
    sentences = [
        words.board_summary(game.board, len(game.state.owner)),
        words.sentence(describe.status(game, words)),
    ]
    if last:
        sentences.append(words.last_move_sentence(last, last_move_route(game) is not None))
    final = describe.final_round(game, words)
    if final:
        sentences.append(words.sentence(final))
    sentences.append(_players(game, words, labels))
    sentences.append(_cards(game, words))
    if game.state.stacks:
        sentences.append(words.stacks_sentence(game.state.stacks))
    return fit_sentences(sentences)


def private_alt(game: Game, seat: int, words: ImageWords, labels: Mapping[int, str] | None = None) -> str:
    rules = game.rules
    tickets = [
        words.ticket_entry(line.tag, game.board.tickets[line.ticket_id], line.done, line.points)
        for line in ticket_lines(game, seat)
    ]
    sentences = [
        words.private_intro(rules, describe.player_name(game, seat, words)),
        words.hand_sentence(rules, game.state.players[seat].hand),
        words.tickets_sentence(rules, tickets),
        words.sentence(describe.status(game, words)),
        _players(game, words, labels),
        _cards(game, words),
    ]
    return fit_sentences(sentences)


def final_alt(game: Game, words: ImageWords, ended: bool = False) -> str:
    """`ended`: a game ended before its end (by a moderator): its scores as it stood are the final ones."""
    scores = game.score()
    sentences = [words.scores_intro(game.rules, game.finished or ended)]
    if game.finished:
        sentences.append(words.sentence(describe.status(game, words)))
    tie = tie_note(game, words) if game.finished or ended else None
    if tie is not None:
        sentences.append(tie)
    for seat, score in enumerate(scores):
        rows = score_rows(game, score, seat, words)
        name = describe.player_name(game, seat, words)
        sentences.append(words.score_sentence(name, player_style(seat), score.total, rows))
    if longest_path_routes(game, scores):
        holders, length = longest_holders(game, scores, words)
        sentences.append(words.longest_outlined(game.rules, holders, length))
    return fit_sentences(sentences)
