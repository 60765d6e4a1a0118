"""How people may write a board's names: the folding that makes "Zurich", "zürich" and "ZÜRICH" one name,
and the names of the things a board knows only by an id (San Francisco's tourist symbols).

Aliases proper ("Geneva" for Genève, "Mumbai" for Bombay) are board facts and live with each place in
the map's data file; this module only says how any written name is compared.
"""

from __future__ import annotations

import re
import unicodedata

_QUOTES = re.compile(r"['\u2018\u2019\u02bc`\u00b4]")
_NOT_WORD = re.compile(r"[\W_]+")

# Tourist symbols (San Francisco) by id -> the name printed on the board's tokens.
SYMBOL_NAMES = {
    "golden_gate_bridge": "Golden Gate Bridge",
    "alcatraz": "Alcatraz",
    "embarcadero": "Embarcadero",
    "sunset": "Sunset",
    "potrero_hill": "Potrero Hill",
    "lombard_street": "Lombard Street",
    "cable_car": "Cable Car",
}


def fold(text: str) -> str:
    """`text` as names are compared: accents dropped (NFKD without combining marks), case folded,
    apostrophes removed and any other punctuation read as a space ("Fisherman's" = "fishermans",
    "La Chaux-de-Fonds" = "la chaux de fonds", "St. Gallen" = "st gallen")."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    # casefold may bring back composed letters' parts; one more pass keeps fold idempotent
    bare = "".join(c for c in unicodedata.normalize("NFKD", bare) if not unicodedata.combining(c))
    return " ".join(_NOT_WORD.sub(" ", _QUOTES.sub("", bare)).split())


def symbol_name(symbol: str) -> str:
    """A tourist symbol as the board names it ("lombard_street" -> "Lombard Street")."""
    known = SYMBOL_NAMES.get(symbol)
    if known is not None:
        return known
    return " ".join(word.capitalize() for word in symbol.split("_"))
