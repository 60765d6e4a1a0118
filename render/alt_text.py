"""Plain-text descriptions of each image, for screen readers (Discord's alt text).

Discord keeps at most 1,024 characters of an attachment's description, so
sentences are added most important first and the rest is left out whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from engine import Game
from render import describe, icons
from render.board import last_move_route
from render.final import longest_path_routes, score_rows
from render.private import ticket_lines

LIMIT = 1024


def fit_sentences(sentences: list[str], limit: int = LIMIT) -> str:
    out = ""
    for sentence in sentences:
        candidate = f"{out} {sentence}".strip()
        if len(candidate) > limit:
            break
        out = candidate
    return out


def _players(game: Game, labels: Mapping[int, str] | None = None) -> str:
    rules = game.rules
    parts = []
    for seat, p in enumerate(game.state.players):
        counts = [
            describe.plural(p.route_points, "point"),
            describe.plural(p.trains, rules.piece_name),
            describe.plural(p.cards, "card"),
            describe.plural(len(p.tickets), rules.ticket_name),
        ]
        if rules.merchandise:
            counts.append(f"{p.merchandise} merchandise")
        if rules.tourists:
            counts.append(describe.plural(len(p.souvenirs), "souvenir"))
        name = describe.player_name(game, seat, labels)
        parts.append(f"{name} ({describe.colour_cue(seat)}): {', '.join(counts)}")
    return "Players: " + "; ".join(parts) + "."


def _cards(game: Game) -> str:
    board = game.board
    face_up = [describe.card_name(board, c) if c else "empty" for c in game.state.piles.face_up]
    piles = game.state.piles
    return (
        f"Face-up cards: {', '.join(face_up)}. Deck {len(piles.deck)}, discard {len(piles.discard)}, "
        f"{len(game.state.ticket_deck)} {board.rules.ticket_name}s left."
    )


def _stacks(game: Game) -> str | None:
    if not game.state.stacks:
        return None
    stacks = [
        f"{icons.symbol_title(s.symbol)} at {place} ({s.tokens})" for place, s in sorted(game.state.stacks.items())
    ]
    return "Tourist stacks: " + ", ".join(stacks) + "."


def _board(game: Game) -> str:
    board = game.board
    claimed = len(game.state.owner)
    caption = " (Conductor's own board for these rules)" if board.designed else ""
    return f"{board.rules.title} board{caption}, {claimed} of {len(board.routes)} routes claimed."


def board_alt(game: Game, labels: Mapping[int, str] | None = None) -> str:
    last = describe.last_move(game)
    sentences = [_board(game), describe.status(game) + "."]
    if last:
        outlined = "; it is outlined in white" if last_move_route(game) is not None else ""
        sentences.append(f"Last move: {last}{outlined}.")
    final = describe.final_round(game)
    if final:
        sentences.append(final + ".")
    sentences.append(_players(game, labels))
    sentences.append(_cards(game))
    stacks = _stacks(game)
    if stacks:
        sentences.append(stacks)
    return fit_sentences(sentences)


def private_alt(game: Game, seat: int, labels: Mapping[int, str] | None = None) -> str:
    board = game.board
    hand: Counter[str] = game.state.players[seat].hand
    cards = ", ".join(f"{n} {describe.card_name(board, c)}" for c, n in sorted(hand.items()) if n > 0) or "none"
    tickets = []
    for line in ticket_lines(game, seat):
        text = describe.ticket_text(board.tickets[line.ticket_id])
        if line.done is None:
            tickets.append(f"on offer {line.tag}: {text}")
        elif line.done:
            tickets.append(f"{line.tag}: {text}, done, +{line.points}")
        else:
            tickets.append(f"{line.tag}: {text}, not yet done, {line.points}")
    name = board.rules.ticket_name
    sentences = [
        f"Private view for {describe.player_name(game, seat)} on the {board.rules.title} board.",
        f"Your cards: {cards}.",
        f"Your {name}s, their places ringed on the board: {'; '.join(tickets) or 'none'}.",
        describe.status(game) + ".",
        _players(game, labels),
        _cards(game),
    ]
    return fit_sentences(sentences)


def final_alt(game: Game, ended: bool = False) -> str:
    """`ended`: a game ended before its end (by a moderator): its scores as it stood are the final ones."""
    scores = game.score()
    sentences = [
        f"Final scores on the {game.rules.title} board."
        if game.finished or ended
        else (f"Scores on the {game.rules.title} board if the game ended now.")
    ]
    if game.finished:
        sentences.append(describe.status(game) + ".")
    for seat, score in enumerate(scores):
        rows = ", ".join(f"{label} {points:+d}" for label, points in score_rows(game, score, seat))
        sentences.append(f"{describe.player_name(game, seat)} ({describe.colour_cue(seat)}): {score.total} ({rows}).")
    if longest_path_routes(game, scores):
        best = max(s.longest for s in scores)
        holders = [describe.player_name(game, seat) for seat, s in enumerate(scores) if s.longest == best]
        sentences.append(f"The {game.rules.longest_name} ({best}) of {' and '.join(holders)} is outlined in gold.")
    return fit_sentences(sentences)
