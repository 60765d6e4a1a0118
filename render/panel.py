"""The public panel: whose turn, every player's counts, the face-up cards, a legend.

Each block is drawn at a given width and returned as an image of the height
it needs; compose.py arranges them beside or under the board.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from engine import Game, Phase
from maps import GRAY, WILD, Board
from render import describe, fonts, pieces, sprites
from render.palette import (
    HALO,
    INK,
    RULE,
    SOFT_INK,
    TICKET_MARK,
    lighter,
    outline_of,
    player_style,
    route_colour,
)
from render.sheet import Sheet, card, train_swatch
from render.words import ImageWords, LegendMark

TITLE = 30
BODY = 20
SMALL = 17
ROW = 64  # a player's row


def header_block(
    game: Game, width: int, words: ImageWords, title: str | None = None, *, ended: bool = False
) -> Image.Image:
    """The map's name and turn, what happens now, and the last move.

    With a `title` (the final image) the last move is left out; `ended`: a moderator ended the game where it
    stood, so nobody is to move any more (no whose-turn line, no final-round line).
    """
    sheet = Sheet(width)
    rules = game.rules
    heading = title or words.turn_heading(rules, game.state.turn + 1)
    if title is None and game.state.phase is Phase.SETUP_KEEP:
        heading = words.setup_heading(rules)
    sheet.write(0, 0, heading, TITLE, width, bold=True, max_lines=2)
    stopped = ended and not game.finished
    if not stopped:
        sheet.write(0, sheet.y + 10, describe.status(game, words), BODY + 2, width, bold=True, max_lines=6)
    lines = [] if stopped else [describe.final_round(game, words)]
    if title is None:
        lines.append(describe.last_move(game, words))
    for line in lines:
        if line:
            sheet.write(0, sheet.y + 8, line, SMALL, width, fill=SOFT_INK, max_lines=4)
    return sheet.finish(padding=6)


def players_block(game: Game, width: int, words: ImageWords, labels: Mapping[int, str] | None = None) -> Image.Image:
    """One row per player: colour and mark, name, points and public counts.

    Points are those scored so far; once the game is over, the final totals.
    `labels`: names to show instead of the game's, by seat.
    """
    sheet = Sheet(width)
    finished = game.finished
    totals = [s.total for s in game.score()] if finished else [p.route_points for p in game.state.players]
    acting = set(game.waiting_for())
    points_font = 26
    sheet.write(
        width - 12,
        0,
        words.final_score_heading() if finished else words.points_heading(),
        SMALL - 2,
        width - 12,
        fill=SOFT_INK,
        anchor="ra",
    )
    top = sheet.y + 2
    for seat, p in enumerate(game.state.players):
        style = player_style(seat)
        points = str(totals[seat]).replace("-", "−")
        points_w = fonts.text_width(points, points_font, True)
        name = describe.player_name(game, seat, words, labels)
        counts = words.counts(game.rules, p, describe.longest_path(game, seat))
        # a long name or a long count line takes more lines: the row grows to hold them whole
        name_lines, name_size = fonts.fitted(name, width - 100 - points_w - 20, BODY + 2, True, max_lines=2)
        count_lines, count_size = fonts.fitted(counts, width - 92 - 12, SMALL, max_lines=3)
        name_h = max(38, fonts.line_height(name_size) * len(name_lines) + 12)
        row = name_h + fonts.line_height(count_size) * len(count_lines) + 8
        if p.name in acting:
            sheet.pen.rounded_rectangle(
                (0, top + 2, width - 1, top + row - 4), radius=10, fill=lighter(style.rgb, 0.82)
            )
            sheet.text(8, top + 19, "▶", BODY, bold=True, anchor="lm")
        train_swatch(sheet.image, 58, top + 19, style)
        sheet.write(
            92, top + name_h / 2, name, BODY + 2, width - 100 - points_w - 20, bold=True, anchor="lm", max_lines=2
        )
        sheet.text(width - 12, top + 19, points, points_font, bold=True, anchor="rm")
        sheet.write(92, top + name_h, counts, SMALL, width - 92 - 12, fill=SOFT_INK, max_lines=3)
        if seat < len(game.state.players) - 1:
            sheet.pen.line((92, top + row - 2, width - 12, top + row - 2), fill=RULE, width=1)
        sheet.use(top + row)
        top += row
    return sheet.finish(padding=4)


def cards_block(game: Game, width: int, words: ImageWords) -> Image.Image:
    """The five face-up cards, named under each, and the sizes of the piles."""
    sheet = Sheet(width)
    rules = game.rules
    sheet.write(0, 0, words.face_up_heading(), SMALL, width, bold=True, fill=SOFT_INK)
    w, h, gap = 72, 100, 12
    top = sheet.y + 10
    for k, name in enumerate(game.state.piles.face_up):
        x = 8 + k * (w + gap)  # room for the first card's name to overhang
        card(sheet, x, top, w, h, name)
        label = words.empty_slot() if name is None else words.card(rules, name)
        sheet.write(x + w / 2, top + h + 6, label, 14, w + gap - 4, fill=SOFT_INK, anchor="ma", max_lines=2)
    piles = game.state.piles
    lines = [words.piles(len(piles.deck), len(piles.discard)), words.tickets_left(rules, len(game.state.ticket_deck))]
    if rules.merchandise:
        lines.append(words.merchandise_left(game.state.merchandise_left))
    for line in lines:
        sheet.write(0, sheet.y + 10, line, BODY, width)
    return sheet.finish(padding=4)


def _legend_space(sheet: Sheet, cx: float, cy: float, colour: str, tunnel: bool = False, ferry: bool = False) -> None:
    fill = route_colour(colour)
    sprites.car(
        sprites.CarSpec(
            cx=cx,
            cy=cy,
            length=46.0,
            width=18.0,
            angle=0.0,
            fill=fill,
            rim=INK if tunnel else outline_of(fill),
            rim_width=2.75 if tunnel else 1.5,
            tunnel=tunnel,
            ferry=ferry,
        )
    ).paste_on(sheet.image)


def legend_marks(board: Board, private: bool = False) -> list[LegendMark]:
    """The marks this map's board has (and the ticket rings of a private view)."""
    marks = [LegendMark.GRAY_ROUTE, LegendMark.LAST_MOVE]
    if any(r.tunnel for r in board.routes):
        marks.append(LegendMark.TUNNEL)
    if any(r.ferries for r in board.routes):
        marks.append(LegendMark.FERRY)
    if any(r.cart for r in board.routes):
        marks.append(LegendMark.CART)
    if board.rules.tourists:
        marks.append(LegendMark.STACK)
    if private:
        marks.append(LegendMark.TICKET)
    return marks


def _legend_sample(sheet: Sheet, mark: LegendMark, cy: int) -> None:
    """The mark itself, centred 30 pixels in."""
    if mark is LegendMark.GRAY_ROUTE:
        _legend_space(sheet, 30, cy, GRAY)
    elif mark is LegendMark.LAST_MOVE:
        sprites.halo(30.0, float(cy), 46.0, 18.0, 0.0, 5.0, HALO, INK).paste_on(sheet.image)
        train_swatch(sheet.image, 30, cy, player_style(0))
    elif mark is LegendMark.TUNNEL:
        _legend_space(sheet, 30, cy, "red", tunnel=True)
    elif mark is LegendMark.FERRY:
        _legend_space(sheet, 30, cy, GRAY, ferry=True)
    elif mark is LegendMark.CART:
        pieces.cart_badge_at(30.0, float(cy), 13.0).paste_on(sheet.image)
    elif mark is LegendMark.STACK:
        _stack_icon(sheet, 30, cy, "cable_car", 3)
    elif mark is LegendMark.TICKET:
        sprites.ring(30.0, float(cy), 11.0, (255, 255, 255), 6.5).paste_on(sheet.image)
        sprites.ring(30.0, float(cy), 11.0, TICKET_MARK, 4.0, dashed=True).paste_on(sheet.image)


def legend_block(board: Board, width: int, words: ImageWords, private: bool = False) -> Image.Image:
    """What the marks on this map's board mean (only those the map has)."""
    sheet = Sheet(width)
    sheet.write(0, 0, words.legend_heading(), SMALL, width, bold=True, fill=SOFT_INK)
    y = sheet.y + 12
    for mark in legend_marks(board, private):
        cy = y + 14
        _legend_sample(sheet, mark, cy)
        bottom = sheet.write(66, cy, words.legend(mark, board.rules), SMALL, width - 70, anchor="lm")
        sheet.use(max(cy + 14, bottom))
        y = max(y + 34, bottom + 8)
    if board.rules.tourists:
        _tourist_symbols(sheet, board, width, y + 4, words)
    return sheet.finish(padding=4)


def _stack_icon(sheet: Sheet, cx: float, cy: float, symbol: str, tokens: int | None = None, r: float = 14.0) -> None:
    pieces.stack_badge_at(cx, cy, r, symbol).paste_on(sheet.image)
    if tokens is not None:
        bx, by = sprites.along(cx, cy, -45.0, r * 1.05)
        sprites.disc(bx, by, 8.0, INK, (255, 255, 255), 1.5).paste_on(sheet.image)
        sheet.pen.text((bx, by + 0.5), str(tokens), font=fonts.font(12, True), fill=(255, 255, 255), anchor="mm")


def _tourist_symbols(sheet: Sheet, board: Board, width: int, top: int, words: ImageWords) -> None:
    """San Francisco's seven tourist symbols with their names, in two columns."""
    assert board.rules.tourists is not None
    symbols = [s for s, _home in board.rules.tourists.symbols]
    column = width // 2
    for k, symbol in enumerate(symbols):
        x = (k % 2) * column
        cy = top + (k // 2) * 34 + 14
        _stack_icon(sheet, x + 30, cy, symbol)
        sheet.write(x + 52, cy, words.tourist_symbol(symbol), SMALL, column - 56, anchor="lm", max_lines=2)
        sheet.use(cy + 16)


def board_card_names(board: Board) -> list[str]:
    """The map's cards in deck order, the wild last."""
    return [*board.rules.colors, WILD]
