"""A panel block being drawn: an image of fixed width that is cut to the height used."""

from __future__ import annotations

from PIL import Image, ImageDraw

from maps import WILD
from render import fonts, sprites
from render.palette import INK, PANEL, RGB, WILD_STRIPES, PlayerStyle, card_colour, ink_on, outline_of

HEIGHT = 1600  # room for any usual block; a long list asks for more


class Sheet:
    def __init__(self, width: int, background: RGB = PANEL, height: int = HEIGHT) -> None:
        self.width = width
        self.height = height
        self.image = Image.new("RGB", (width, height), background)
        self.pen = ImageDraw.Draw(self.image)
        self.y = 0  # the lowest pixel row used so far

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: int,
        bold: bool = False,
        fill: RGB = INK,
        anchor: str = "la",
    ) -> tuple[int, int, int, int]:
        """Draw `text`; returns its box and moves the used height below it."""
        font = fonts.font(size, bold)
        self.pen.text((x, y), text, font=font, fill=fill, anchor=anchor)
        box = self.pen.textbbox((x, y), text, font=font, anchor=anchor)
        self.y = max(self.y, int(box[3]) + 1)
        return (int(box[0]), int(box[1]), int(box[2]), int(box[3]))

    def write(
        self,
        x: float,
        y: float,
        text: str,
        size: int,
        width: int,
        bold: bool = False,
        fill: RGB = INK,
        anchor: str = "la",
        max_lines: int = 3,
    ) -> int:
        """Draw `text` whole within `width` pixels (smaller, or on more lines: `fonts.fitted`), lined up by `anchor`
        as `text` does (a vertical "m" centres the lines together on `y`); returns the bottom of the last line."""
        lines, fitted_size = fonts.fitted(text, width, size, bold, max_lines=max_lines)
        step = fonts.line_height(fitted_size)
        first = y - (len(lines) - 1) * step / 2 if anchor[1:] == "m" else y
        bottom = int(y)
        for k, line in enumerate(lines):
            bottom = self.text(x, first + k * step, line, fitted_size, bold, fill, anchor)[3]
        return bottom

    def use(self, bottom: float) -> None:
        self.y = max(self.y, int(bottom) + 1)

    def finish(self, padding: int = 0) -> Image.Image:
        return self.image.crop((0, 0, self.width, min(self.height, self.y + padding)))


def train_swatch(
    image: Image.Image, cx: float, cy: float, style: PlayerStyle, length: float = 46, width: float = 18
) -> None:
    """A player's train, as on the board: their colour and mark."""
    sprites.car(
        sprites.CarSpec(
            cx=sprites.quantise(cx),
            cy=sprites.quantise(cy),
            length=length,
            width=width,
            angle=0.0,
            fill=style.rgb,
            rim=INK,
            rim_width=2.0,
            mark=style.mark,
            mark_rgb=style.mark_rgb,
            shine=True,
        )
    ).paste_on(image)


def card(sheet: Sheet, x: int, y: int, w: int, h: int, name: str | None, count: int | None = None) -> None:
    """A train card: its colour (the wild in stripes), or a dashed outline for an empty slot.

    `count`, when given, is printed large on the card.
    """
    pen = sheet.pen
    box = (x, y, x + w, y + h)
    if name is None:
        pen.rounded_rectangle(box, radius=7, outline=(190, 182, 168), width=2)
        sheet.use(y + h)
        return
    colour = card_colour(name)
    if colour is None:
        pen.rounded_rectangle(box, radius=7, fill=INK)
        inner_h = h - 8
        band = inner_h / len(WILD_STRIPES)
        for k, stripe in enumerate(WILD_STRIPES):
            top = y + 4 + band * k
            pen.rectangle((x + 4, round(top), x + w - 4, round(top + band) - 1), fill=stripe)
        text_fill: RGB = (255, 255, 255)
    else:
        pen.rounded_rectangle(
            box, radius=7, fill=colour, outline=outline_of(colour) if name != "black" else INK, width=2
        )
        text_fill = ink_on(colour)
    if count is not None:
        size = max(16, min(30, h // 2))
        if name == WILD:
            # a dark disc keeps the number readable over the stripes
            r = size * 0.75
            cx, cy = x + w / 2, y + h / 2
            pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
        pen.text((x + w / 2, y + h / 2), str(count), font=fonts.font(size, True), fill=text_fill, anchor="mm")
    sheet.use(y + h)
