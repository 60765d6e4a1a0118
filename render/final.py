"""The final image's panel: every player's score, broken down, and who won."""

from __future__ import annotations

from PIL import Image

from engine import Game
from engine.scoring import PlayerScore
from render import describe, fonts
from render.palette import DONE, INK, NOT_DONE, PANEL, RULE, SOFT_INK, lighter, player_style
from render.panel import BODY, SMALL
from render.sheet import Sheet, train_swatch
from render.words import ImageWords

CARD_GAP = 18
LINE = 31


def longest_path_routes(game: Game, scores: list[PlayerScore]) -> set[int]:
    """The routes of the longest path(s) drawn on the final board: those of its holders."""
    best = max((s.longest for s in scores), default=0)
    if best <= 0:
        return set()
    return {r.id for s in scores if s.longest == best for r in s.longest_routes}


def score_rows(game: Game, score: PlayerScore, seat: int, words: ImageWords) -> list[tuple[str, int]]:
    """(what, points) lines of one player's score, for this map's bonuses."""
    rules = game.rules
    player = game.state.players[seat]
    rows = [
        (words.routes_row(len(player.routes), rules), score.routes),
        (words.tickets_done_row(rules, score.completed), sum(p for _t, done, p in score.ticket_results if done)),
        (words.tickets_failed_row(rules, score.failed), sum(p for _t, done, p in score.ticket_results if not done)),
    ]
    if rules.longest_bonus:
        rows.append((words.longest_row(rules, score.longest), score.bonus["longest"]))
    if rules.mandala_bonus:
        rows.append((words.mandala_row(), score.bonus["mandala"]))
    if rules.merchandise:
        rows.append((words.merchandise_row(player.merchandise), score.bonus["merchandise"]))
    if rules.tourists:
        rows.append((words.tourists_row(len(set(player.souvenirs))), score.bonus["tourists"]))
    return rows


def longest_holders(game: Game, scores: list[PlayerScore], words: ImageWords) -> tuple[list[str], int]:
    """The names of those who hold the longest path, and its length; nobody when no one has a path."""
    best = max((s.longest for s in scores), default=0)
    holders = [
        describe.player_name(game, seat, words) for seat, s in enumerate(scores) if best > 0 and s.longest == best
    ]
    return holders, best


def _signed(points: int) -> str:
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"−{-points}"
    return "0"


def _score_card(game: Game, score: PlayerScore, seat: int, winner: bool, width: int, words: ImageWords) -> Image.Image:
    sheet = Sheet(width)
    style = player_style(seat)
    rows = score_rows(game, score, seat, words)
    name_w = width - 80 - (100 if winner else 0)
    name = describe.player_name(game, seat, words)
    # every text whole: a long name or row takes more lines, and the card grows to hold them
    name_lines, name_size = fonts.fitted(name, name_w, BODY + 2, True, max_lines=3)
    head = max(56, fonts.line_height(name_size) * len(name_lines) + 26)
    fitted = [fonts.fitted(label, width - 100, SMALL + 1, max_lines=3) for label, _points in rows]
    heights = [max(LINE, fonts.line_height(size) * len(lines) + 10) for lines, size in fitted]
    height = head + sum(heights) + LINE + 12
    sheet.pen.rounded_rectangle(
        (0, 0, width - 1, height), radius=12, fill=lighter(style.rgb, 0.86), outline=style.rgb, width=3
    )
    train_swatch(sheet.image, 36, 30, style)
    sheet.write(70, head / 2 + 2, name, BODY + 2, name_w, bold=True, anchor="lm", max_lines=3)
    if winner:
        sheet.write(width - 14, 30, words.winner_badge(), SMALL, 90, bold=True, anchor="rm")
    y = head
    for (label, points), row_h in zip(rows, heights, strict=True):
        sheet.write(16, y + row_h / 2, label, SMALL + 1, width - 100, anchor="lm")
        colour = DONE if points > 0 else NOT_DONE if points < 0 else INK
        sheet.text(
            width - 16,
            y + row_h / 2,
            _signed(points),
            BODY,
            bold=True,
            fill=colour if points else SOFT_INK,
            anchor="rm",
        )
        sheet.pen.line((16, y + row_h, width - 16, y + row_h), fill=RULE, width=1)
        y += row_h
    sheet.write(16, y + LINE / 2 + 2, words.total(), BODY, width - 120, bold=True, anchor="lm")
    sheet.text(width - 16, y + LINE / 2 + 2, _signed(score.total).lstrip("+"), 28, bold=True, anchor="rm")
    sheet.use(height)
    return sheet.finish(padding=1)


def scores_block(game: Game, width: int, words: ImageWords) -> Image.Image:
    """One score card per player, side by side where there is room."""
    scores = game.score()
    winners = set(game.winners())
    per_row = max(1, min(len(scores), (width + CARD_GAP) // (300 + CARD_GAP)))
    card_w = (width - CARD_GAP * (per_row - 1)) // per_row
    cards = [_score_card(game, sc, seat, sc.name in winners, card_w, words) for seat, sc in enumerate(scores)]
    rows = [cards[i : i + per_row] for i in range(0, len(cards), per_row)]
    height = sum(max(c.height for c in row) for row in rows) + CARD_GAP * (len(rows) - 1)
    image = Image.new("RGB", (width, height), PANEL)
    y = 0
    for row in rows:
        for k, card_image in enumerate(row):
            image.paste(card_image, (k * (card_w + CARD_GAP), y))
        y += max(c.height for c in row) + CARD_GAP
    return image


def longest_note(
    game: Game, scores: list[PlayerScore], width: int, words: ImageWords, *, over: bool = False
) -> Image.Image:
    """Who holds the longest path, as drawn in gold on the board; first, for a game `over`, how a tie on points
    was broken."""
    sheet = Sheet(width)
    holders, length = longest_holders(game, scores, words)
    texts = [words.longest_note(game.rules, holders, length)]
    tie = tie_note(game, words) if over else None
    if tie is not None:
        texts.insert(0, tie)
    for text in texts:
        for line in fonts.wrap(text, width, SMALL + 1):
            sheet.write(0, sheet.y + 4, line, SMALL + 1, width, fill=SOFT_INK, max_lines=2)
    return sheet.finish(padding=4)


def tie_note(game: Game, words: ImageWords, fit_to: int | None = None) -> str | None:
    """How a tie on points was broken, when there was one; `fit_to`: each name cut to that width (pixels)."""
    tie = game.tie_break()
    if tie is None:
        return None
    names = {name: describe.player_name(game, seat, words) for seat, name in enumerate(game.names)}
    if fit_to is not None:
        names = {name: fonts.fit(shown, fit_to, SMALL + 1) for name, shown in names.items()}
    return words.tie_note(game.rules, tie, names)
