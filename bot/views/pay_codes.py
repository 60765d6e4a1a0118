"""The payment code a control carries in its custom id ("locomotive1+pink3"): written and read here, only here.

The claim's controls (the payment menus, the confirmation, the souvenir menu)
and the tunnel's buttons write a payment with `pay_code`; their handlers
(bot/table/controls.py) read it back with `parse_pay_code`, which refuses
anything `pay_code` could not have written.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from bot.present.misread import pay_code_text, too_long_text
from bot.views.replies import Refusal

# the longest code read (a custom id holds 100 characters; a payment's code is far shorter)
MAX_CODE = 200
# a card's count in a code: at most this many digits
MAX_DIGITS = 4
_PART = re.compile(rf"([a-z_]+)([0-9]{{1,{MAX_DIGITS}}})", re.ASCII)


def pay_code(cards: Mapping[str, int]) -> str:
    """A payment as a control carries it: each card with its count, in the cards' order ("pink3+locomotive1" is
    written "locomotive1+pink3"); cards counted 0 are left out."""
    return "+".join(f"{c}{n}" for c, n in sorted(cards.items()) if n > 0)


def parse_pay_code(code: str) -> Counter[str]:
    """The payment a control's code carries; refused unless it is one `pay_code` could have written."""
    if len(code) > MAX_CODE:
        raise Refusal(too_long_text(MAX_CODE))
    cards: Counter[str] = Counter()
    for part in code.split("+"):
        match = _PART.fullmatch(part)
        if match is None or int(match.group(2)) < 1:
            raise Refusal(pay_code_text())
        cards[match.group(1)] += int(match.group(2))
    if pay_code(cards) != code:  # each card once, in order, no leading zero: as written, or not a code of ours
        raise Refusal(pay_code_text())
    return cards
