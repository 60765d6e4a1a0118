"""Languages: the catalogues and the language texts are being written in.

Every sentence of the bot is written in English in the code, marked for
translation, and looked up in the gettext catalogue of the language being
spoken (`bot/present/locale/LANG/LC_MESSAGES/conductor.mo`, compiled from the
`.po` files by `python -m tools.i18n compile`; see docs/players.md, "Languages").

The language is not passed through every function: the caller says which
language a text is for with `speaking(language)` around the code that
writes it (a private answer in its reader's language, a channel message in
the server's), and `_`, `ngettext`, `pgettext` and `npgettext` look the
words up in that language. Outside any `speaking`, texts are English.

`N_` marks a text for the catalogue without translating it (for tables of
texts made at import time); translate it with `_` where it is used.

`map_` and `nmap_` are `_` and `ngettext` for the texts that name a concept
each map's rulebook words its own way (claiming a route): the catalogue holds
such a text once without a context and once more for each map of
`MAP_CONTEXTS` (by the map's id; msgctxt: the map's title), where a language's rulebook says
it otherwise (the Swedish USA rulebook *bygger en rutt*, the others *mutar in
en sträcka*; see `locale/GLOSSARY.md`).
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from bot.service.kinds import Language
from maps import MAP_NAMES

DOMAIN = "conductor"
LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT_LANGUAGE = Language.EN

_speaking: ContextVar[Language] = ContextVar("speaking", default=DEFAULT_LANGUAGE)

# Discord locales (interaction.locale, guild.preferred_locale) of the languages spoken
_DISCORD_LOCALES = {"en-US": Language.EN, "en-GB": Language.EN, "sv-SE": Language.SV, "fi": Language.FI}


@cache
def catalogue(language: Language) -> gettext.NullTranslations:
    """The compiled catalogue of a language (English reads its own, so plural forms come from it too)."""
    return gettext.translation(DOMAIN, LOCALE_DIR, [language.value])


def current_language() -> Language:
    """The language texts are written in here and now."""
    return _speaking.get()


@contextmanager
def speaking(language: Language) -> Iterator[None]:
    """Write the texts of this block in `language`."""
    token = _speaking.set(language)
    try:
        yield
    finally:
        _speaking.reset(token)


def language_of_locale(locale: object) -> Language | None:
    """The language of a Discord locale ("sv-SE", a `discord.Locale`), or None if the bot does not speak it."""
    code = str(getattr(locale, "value", locale))
    found = _DISCORD_LOCALES.get(code)
    if found is not None:
        return found
    head = code.split("-")[0].lower()
    return next((lang for lang in Language if lang.value == head), None)


def _(message: str) -> str:
    """`message` in the language being spoken."""
    return catalogue(_speaking.get()).gettext(message)


def N_(message: str) -> str:  # the name gettext tools look for
    """Marks `message` for the catalogue; it is translated later, with `_`, where it is shown."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form for `count` (languages have their own plural rules) in the language being spoken."""
    return catalogue(_speaking.get()).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """`message` as meant in `context` (a short word that reads differently elsewhere: a button, a colour)."""
    return catalogue(_speaking.get()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    return catalogue(_speaking.get()).npgettext(context, singular, plural, count)


# The maps (by id) whose rulebook words the texts of `map_` otherwise in some language, with the context their
# entries have (the map's title, as a translator knows it): each such text has an entry with this context too
# (tools/i18n.py adds them).
MAP_CONTEXTS = {"usa": "USA"}


def _map_context(map_id: str) -> str | None:
    """The catalogue context of the map `map_id` ("": no map known), None where it words as every map does."""
    if map_id and map_id not in MAP_NAMES:
        raise ValueError(f"{map_id!r} is not a map id")  # a title by mistake: it would lose the map's words
    return MAP_CONTEXTS.get(map_id)


def map_(map_id: str, message: str) -> str:
    """`message` as the rulebook of the map `map_id` words it, in the language being spoken."""
    if (context := _map_context(map_id)) is not None:
        return catalogue(_speaking.get()).pgettext(context, message)
    return catalogue(_speaking.get()).gettext(message)


def nmap_(map_id: str, singular: str, plural: str, count: int) -> str:
    """`map_` with the form for `count`."""
    if (context := _map_context(map_id)) is not None:
        return catalogue(_speaking.get()).npgettext(context, singular, plural, count)
    return catalogue(_speaking.get()).ngettext(singular, plural, count)
