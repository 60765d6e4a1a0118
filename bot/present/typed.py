"""The words members may type, in every language the bot speaks: cards, the deck, time units, "none".

bot/table/parsing.py reads every language's words whatever the reader's
language (a Finn may type "röd" in a Swedish server); a refusal lists the
words of the reader's language (bot/present/misread.py). Words are compared
folded (maps.names.fold: accents, case and punctuation ignored), so "rod",
"Röd" and "RÖD" are one word, as are "paivaa" and "päivää".

A translator adding a language adds its words here (the first word of each
list is the one a refusal shows) and a test checks that each parses.
"""

from __future__ import annotations

from bot.service.kinds import Language
from maps import WILD, Rules

# ----- cards -------------------------------------------------------------------------
# card -> the words for it, per language. A colour word may name one of several colours (Swedish "lila" is the
# pink cards of the USA and the purple ones of San Francisco): it names the first of them the map has.
# English colour words are the map's own colour names (bot/table/parsing.py), as before.

_PINK_SV = ("rosa", "lila", "rosafärgad", "rosafärgade", "cerise", "purpur", "violett", "violetta", "lilaa")
_PINK_FI = (
    "pinkki",
    "pinkkiä",
    "pinkit",
    "vaaleanpunainen",
    "vaaleanpunaista",
    "roosa",
    "roosaa",
    "violetti",
    "violettia",
    "liila",
    "liilaa",
    "lila",
    "purppura",
    "purppuraa",
)
COLOUR_WORDS: dict[Language, dict[str, tuple[str, ...]]] = {
    Language.SV: {
        "pink": _PINK_SV,
        "purple": ("lila", *(w for w in _PINK_SV if w != "lila")),
        "white": ("vit", "vitt", "vita"),
        "blue": ("blå", "blått", "blåa"),
        "yellow": ("gul", "gult", "gula"),
        "orange": ("orange", "orangea", "orangefärgad", "orangefärgade", "brun", "bruna"),
        "black": ("svart", "svarta"),
        "red": ("röd", "rött", "röda"),
        "green": ("grön", "grönt", "gröna"),
    },
    Language.FI: {
        "pink": _PINK_FI,
        "purple": ("violetti", *(w for w in _PINK_FI if w != "violetti")),
        "white": ("valkoinen", "valkoista", "valkoiset", "valkea", "valkeaa"),
        "blue": ("sininen", "sinistä", "siniset"),
        "yellow": ("keltainen", "keltaista", "keltaiset"),
        "orange": ("oranssi", "oranssia", "oranssit", "oranssinen", "oranssista"),
        "black": ("musta", "mustaa", "mustat"),
        "red": ("punainen", "punaista", "punaiset"),
        "green": ("vihreä", "vihreää", "vihreät"),
    },
}

# the wild card: first the word of each map's wild card (by its English name: what a refusal shows), then "" the
# words that name the wild card on every map (a member may call Amsterdam's joker a locomotive)
WILD_WORDS: dict[Language, dict[str, tuple[str, ...]]] = {
    Language.EN: {
        "": ("wild", "wilds", "loco", "locos", "locomotive", "locomotives"),
    },
    Language.SV: {
        "locomotive": ("lok",),
        "joker": ("joker",),
        "ferry card": ("färjekort",),
        "": (
            "lok",
            "loket",
            "loken",
            "lokkort",
            "lokomotiv",
            "lokomotivet",
            "lokomotiven",
            "lokomotivkort",
            "joker",
            "jokern",
            "jokrar",
            "jokrarna",
            "jokerkort",
            "färja",
            "färjor",
            "färjekort",
            "färjekorten",
            "regnbåge",
            "regnbågar",
        ),
    },
    Language.FI: {
        "locomotive": ("veturi",),
        "joker": ("jokeri",),
        "ferry card": ("lauttakortti",),
        "": (
            "veturi",
            "veturia",
            "veturit",
            "veturikortti",
            "veturikorttia",
            "veturikortit",
            "jokeri",
            "jokeria",
            "jokerit",
            "jokerikortti",
            "jokerikorttia",
            "lautta",
            "lauttaa",
            "lautat",
            "lauttakortti",
            "lauttakorttia",
            "lauttakortit",
        ),
    },
}

# words that only say "card(s)" or join counts ("3 röda kort och 1 lok", "3 kpl punaisia")
FILLER_WORDS = frozenset(
    {"card", "cards", "and", "x", "kort", "korten", "kortet", "och", "st", "kortti", "korttia", "kortit", "ja", "kpl"}
)

# ----- the deck ----------------------------------------------------------------------

DECK_WORDS: dict[Language, tuple[str, ...]] = {
    Language.EN: ("deck", "the deck", "blind", "draw from deck"),
    Language.SV: (
        "högen",
        "hög",
        "lek",
        "leken",
        "kortleken",
        "drahög",
        "drahögen",
        "blind",
        "dra blind",
        "dra från högen",
    ),
    Language.FI: ("pakka", "pakasta", "pakkaa", "nostopakka", "nostopakasta", "sokko", "sokkona", "nosta pakasta"),
}

# ----- durations ---------------------------------------------------------------------

_WEEK, _DAY, _HOUR, _MINUTE = 7 * 86400, 86400, 3600, 60
TIME_UNITS: dict[Language, dict[str, int]] = {
    Language.EN: {
        **dict.fromkeys(("w", "week", "weeks"), _WEEK),
        **dict.fromkeys(("d", "day", "days"), _DAY),
        **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), _HOUR),
        **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), _MINUTE),
        **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1),
    },
    Language.SV: {
        **dict.fromkeys(("v", "vecka", "veckor", "veckan"), _WEEK),
        **dict.fromkeys(("d", "dag", "dagar", "dagen", "dygn", "dygnet"), _DAY),
        **dict.fromkeys(("t", "h", "tim", "timme", "timmar", "timmen"), _HOUR),
        **dict.fromkeys(("m", "min", "minut", "minuter", "minuten"), _MINUTE),
        **dict.fromkeys(("s", "sek", "sekund", "sekunder"), 1),
    },
    Language.FI: {
        **dict.fromkeys(("vk", "viikko", "viikkoa", "viikot"), _WEEK),
        **dict.fromkeys(("d", "pv", "vrk", "päivä", "päivää", "päivän", "päivät", "vuorokausi", "vuorokautta"), _DAY),
        **dict.fromkeys(("t", "h", "tunti", "tuntia", "tunnin", "tunnit"), _HOUR),
        **dict.fromkeys(("m", "min", "minuutti", "minuuttia", "minuutin", "minuutit"), _MINUTE),
        **dict.fromkeys(("s", "sek", "sekunti", "sekuntia", "sekunnit"), 1),
    },
}

# words between the parts of a duration ("2 dagar och 12 timmar", "2 päivää ja 12 tuntia")
DURATION_JOINERS = frozenset({"and", "och", "ja"})

# "none": no clock, no reserve, no reminders
NONE_WORDS: dict[Language, tuple[str, ...]] = {
    Language.EN: ("none", "no", "off", "0", "never", "no clock"),
    Language.SV: ("ingen", "inget", "inga", "nej", "av", "aldrig", "ingen klocka", "ingen reserv"),
    Language.FI: ("ei", "ei mitään", "ei mikään", "pois", "ei koskaan", "ei kelloa", "ei varaaikaa"),
}


def colour_words(language: Language, colour: str) -> tuple[str, ...]:
    """The words of `language` for a colour's cards (English: the colour's own name)."""
    if language is Language.EN:
        return (colour,)
    return COLOUR_WORDS.get(language, {}).get(colour, ())


def wild_words(language: Language, rules: Rules) -> tuple[str, ...]:
    """The words of `language` for the wild card of `rules`' map, its own word first."""
    if language is Language.EN:
        return (rules.wild_name.lower(),)
    return WILD_WORDS.get(language, {}).get(rules.wild_name.lower(), ())


def card_words(language: Language, rules: Rules) -> list[str]:
    """One word for each card of the map, in `language` (what a refusal lists), in the map's card order."""
    words = [next(iter(colour_words(language, c)), c) for c in rules.colors]
    wild = wild_words(language, rules)
    return [*words, wild[0] if wild else WILD]


def card_example(language: Language, rules: Rules) -> str:
    """A payment as a member would type it in `language`: "3 pink 1 locomotive", "3 rosa 1 lok"."""
    words = card_words(language, rules)
    return f"3 {words[0]} 1 {words[-1]}"
