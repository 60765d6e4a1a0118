"""The final image's panel: every player's score, broken down, and who won."""

from __future__ import annotations

from PIL import Image

from engine import Game
from engine.scoring import PlayerScore
from render import describe, fonts
from render.palette import DONE, INK, NOT_DONE, PANEL, RULE, SOFT_INK, lighter, player_style
from render.panel import BODY, SMALL
from render.sheet import Sheet, train_swatch

CARD_GAP = 18
LINE = 31


def longest_path_routes(game: Game, scores: list[PlayerScore]) -> set[int]:
    """The routes of the longest path(s) drawn on the final board: those of its holders."""
    best = max((s.longest for s in scores), default=0)
    if best <= 0:
        return set()
    return {r.id for s in scores if s.longest == best for r in s.longest_routes}


def score_rows(game: Game, score: PlayerScore, seat: int) -> list[tuple[str, int]]:
    """(what, points) lines of one player's score, for this map's bonuses."""
    rules = game.rules
    player = game.state.players[seat]
    rows = [
        (f"routes ({len(player.routes)})", score.routes),
        (f"{rules.ticket_name}s done ({score.completed})", sum(p for _t, done, p in score.ticket_results if done)),
        (f"{rules.ticket_name}s failed ({score.failed})", sum(p for _t, done, p in score.ticket_results if not done)),
    ]
    if rules.longest_bonus:
        # India calls it the Indian Express; elsewhere the short name fits the card
        name = "longest path" if rules.longest_name == "longest continuous path" else rules.longest_name
        rows.append((f"{name} ({score.longest})", score.bonus["longest"]))
    if rules.mandala_bonus:
        rows.append(("Grand Tour (Mandala)", score.bonus["mandala"]))
    if rules.merchandise:
        rows.append((f"merchandise ({player.merchandise} cards)", score.bonus["merchandise"]))
    if rules.tourists:
        rows.append((f"tourists ({len(set(player.souvenirs))} kinds)", score.bonus["tourists"]))
    return rows


def _signed(points: int) -> str:
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"−{-points}"
    return "0"


def _score_card(game: Game, score: PlayerScore, seat: int, winner: bool, width: int) -> Image.Image:
    sheet = Sheet(width)
    style = player_style(seat)
    rows = score_rows(game, score, seat)
    height = 56 + LINE * (len(rows) + 1) + 12
    sheet.pen.rounded_rectangle(
        (0, 0, width - 1, height), radius=12, fill=lighter(style.rgb, 0.86), outline=style.rgb, width=3
    )
    train_swatch(sheet.image, 36, 30, style)
    name_w = width - 80 - (100 if winner else 0)
    sheet.text(
        70, 30, fonts.fit(describe.player_name(game, seat), name_w, BODY + 2, True), BODY + 2, bold=True, anchor="lm"
    )
    if winner:
        sheet.text(width - 14, 30, "★ winner", SMALL, bold=True, anchor="rm")
    y = 56
    for label, points in rows:
        sheet.text(16, y + LINE / 2, fonts.fit(label, width - 100, SMALL + 1), SMALL + 1, anchor="lm")
        colour = DONE if points > 0 and "failed" not in label else NOT_DONE if points < 0 else INK
        sheet.text(
            width - 16, y + LINE / 2, _signed(points), BODY, bold=True, fill=colour if points else SOFT_INK, anchor="rm"
        )
        sheet.pen.line((16, y + LINE, width - 16, y + LINE), fill=RULE, width=1)
        y += LINE
    sheet.text(16, y + LINE / 2 + 2, "total", BODY, bold=True, anchor="lm")
    sheet.text(width - 16, y + LINE / 2 + 2, _signed(score.total).lstrip("+"), 28, bold=True, anchor="rm")
    sheet.use(height)
    return sheet.finish(padding=1)


def scores_block(game: Game, width: int) -> Image.Image:
    """One score card per player, side by side where there is room."""
    scores = game.score()
    winners = set(game.winners())
    per_row = max(1, min(len(scores), (width + CARD_GAP) // (300 + CARD_GAP)))
    card_w = (width - CARD_GAP * (per_row - 1)) // per_row
    cards = [_score_card(game, sc, seat, sc.name in winners, card_w) for seat, sc in enumerate(scores)]
    rows = [cards[i : i + per_row] for i in range(0, len(cards), per_row)]
    height = sum(max(c.height for c in row) for row in rows) + CARD_GAP * (len(rows) - 1)
    image = Image.new("RGB", (width, height), PANEL)
    y = 0
    for row in rows:
        for k, card_image in enumerate(row):
            image.paste(card_image, (k * (card_w + CARD_GAP), y))
        y += max(c.height for c in row) + CARD_GAP
    return image


def longest_note(game: Game, scores: list[PlayerScore], width: int) -> Image.Image:
    """Who holds the longest path, as drawn in gold on the board."""
    sheet = Sheet(width)
    best = max((s.longest for s in scores), default=0)
    holders = [describe.player_name(game, seat) for seat, s in enumerate(scores) if best > 0 and s.longest == best]
    rules = game.rules
    if not holders:
        text = f"Nobody has a {rules.longest_name}."
    else:
        whose = " and ".join(holders)
        each = " each" if len(holders) > 1 else ""
        bonus = f", +{rules.longest_bonus}{each}" if rules.longest_bonus else " (no bonus on this map)"
        text = f"Gold on the board: the {rules.longest_name} of {whose}, {best} {rules.piece_name}{bonus}."
    for line in fonts.wrap(text, width, SMALL + 1):
        sheet.text(0, sheet.y + 4, line, SMALL + 1, fill=SOFT_INK)
    return sheet.finish(padding=4)
