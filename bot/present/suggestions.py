"""What the slash commands' autocompletes suggest, in the reader's language: routes, durations.

The values sent back stay as the commands read them ("12h", "none", a route's id); only the labels a member sees
are translated. The other lists (cards, games, players) are labelled by the modules that name those things.
"""

from __future__ import annotations

from bot.present.i18n import _, ngettext, pgettext
from bot.present.words import colour_name
from maps import Route

_MINUTE, _HOUR, _DAY = 60, 3600, 86400


def route_label(route: Route) -> str:
    """A route as the claim list offers it: "Denver - Omaha (red, 4, tunnel)" (English: exactly `route.label()`)."""
    extra = []
    if route.tunnel:
        extra.append(pgettext("route", "tunnel"))
    if route.ferries:
        extra.append(pgettext("route", "ferry x{count}").format(count=route.ferries))
    if route.track is not None:
        extra.append(pgettext("route", "track {track}/2").format(track=route.track))
    tail = "".join(_(", {part}").format(part=part) for part in extra)
    return _("{a} - {b} ({colour}, {length}{tail})").format(
        a=route.a, b=route.b, colour=colour_name(route.color), length=route.length, tail=tail
    )


def duration_label(seconds: int) -> str:
    """A suggested duration as the reader writes it: English "12h", "2d" (the values the commands are sent),
    Swedish "12 t", "2 dagar", Finnish "12 t", "2 pv"."""
    if seconds % _DAY == 0:
        count = seconds // _DAY
        return ngettext("{count}d", "{count}d", count).format(count=count)
    if seconds % _HOUR == 0:
        count = seconds // _HOUR
        return ngettext("{count}h", "{count}h", count).format(count=count)
    count = seconds // _MINUTE
    return ngettext("{count}m", "{count}m", count).format(count=count)


def no_clock_label() -> str:
    """The "none" suggestion of a turn time."""
    return _("none (no clock)")


def no_reserve_label() -> str:
    """The "none" suggestion of a reserve."""
    return _("none (no reserve)")
