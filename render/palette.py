"""Every colour the renderer uses, and the second cue each player colour carries.

Tests compare pixels with these exact values, so images are encoded as RGB
PNGs (no palette quantisation that could shift a colour).
"""

from __future__ import annotations

from dataclasses import dataclass

from maps import GRAY, WILD

RGB = tuple[int, int, int]

# Route and card colours, by the card colour names the maps use. Slightly
# softer than the player colours so a claimed train stands out from the track.
ROUTE_COLOURS: dict[str, RGB] = {
    "pink": (242, 156, 200),
    "white": (246, 244, 236),
    "blue": (58, 120, 214),
    "yellow": (246, 212, 52),
    "orange": (242, 146, 38),
    "black": (48, 48, 54),
    "red": (206, 38, 42),
    "green": (84, 168, 68),
    "purple": (146, 86, 184),
    GRAY: (168, 168, 164),
}

# The wild card is drawn as these stripes (a "rainbow" card, as in the game).
WILD_STRIPES: tuple[RGB, ...] = ((206, 38, 42), (246, 212, 52), (84, 168, 68), (58, 120, 214), (146, 86, 184))


@dataclass(frozen=True)
class PlayerStyle:
    """A seat's colour and the mark drawn on each of its trains, for colour-blind players."""

    name: str  # the colour's key: ImageWords.colour_cue names it in alt text
    rgb: RGB
    mark: str  # circle | triangle | square | diamond | cross: the shape drawn, named by colour_cue too
    mark_rgb: RGB  # the mark's colour: whichever of black and white contrasts more


# Okabe-Ito colours (Color Universal Design), chosen to be told apart with
# every common kind of colour blindness; the mark is the cue that never fails.
PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle("blue", (0, 114, 178), "circle", (255, 255, 255)),
    PlayerStyle("vermilion", (213, 94, 0), "triangle", (255, 255, 255)),
    PlayerStyle("bluish green", (0, 158, 115), "square", (255, 255, 255)),
    PlayerStyle("reddish purple", (204, 121, 167), "diamond", (0, 0, 0)),
    PlayerStyle("sky blue", (86, 180, 233), "cross", (0, 0, 0)),
)

INK: RGB = (34, 32, 30)  # text and outlines
SOFT_INK: RGB = (96, 90, 82)  # secondary text
PAPER: RGB = (240, 232, 210)  # the board's background
PAPER_EDGE: RGB = (214, 200, 168)  # the board's frame
PANEL: RGB = (252, 249, 242)  # the panel's background
RULE: RGB = (214, 206, 190)  # lines between panel rows
CITY_FILL: RGB = (255, 252, 244)
HALO: RGB = (255, 255, 255)  # last-move halo, drawn with an ink rim
LONGEST: RGB = (255, 196, 0)  # the longest path's halo on the final image
TICKET_MARK: RGB = (200, 0, 120)  # a player's ticket places in the private view
DONE: RGB = (0, 122, 60)
NOT_DONE: RGB = (176, 40, 20)


def player_style(seat: int) -> PlayerStyle:
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


def route_colour(name: str) -> RGB:
    return ROUTE_COLOURS[name]


def card_colour(name: str) -> RGB | None:
    """A card's colour, or None for the wild (drawn as stripes)."""
    if name == WILD:
        return None
    return ROUTE_COLOURS[name]


def darker(rgb: RGB, factor: float = 0.62) -> RGB:
    r, g, b = rgb
    return (int(r * factor), int(g * factor), int(b * factor))


def lighter(rgb: RGB, amount: float = 0.35) -> RGB:
    r, g, b = rgb
    return (int(r + (255 - r) * amount), int(g + (255 - g) * amount), int(b + (255 - b) * amount))


def luminance(rgb: RGB) -> float:
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(rgb: RGB) -> RGB:
    """Black or white, whichever reads better on `rgb`."""
    return INK if luminance(rgb) > 140 else (255, 255, 255)


def outline_of(rgb: RGB) -> RGB:
    """A track space's rim: a darker shade, except for dark colours."""
    if luminance(rgb) < 70:
        return (12, 12, 14)
    return darker(rgb, 0.55)
