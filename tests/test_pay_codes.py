"""The payment code a control carries (bot/views/pay_codes.py): written and read in one module, and what is written
reads back as the same payment; anything else is refused, never read as some other payment."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.views.pay_codes import MAX_CODE, parse_pay_code, pay_code
from bot.views.replies import Refusal
from maps import MAP_NAMES, WILD, load_board

# every card of every map, as the engine names them
CARDS = sorted({WILD, *(c for name in MAP_NAMES for c in load_board(name).rules.colors)})
PAYMENTS = st.dictionaries(st.sampled_from(CARDS), st.integers(0, 9999))


@given(PAYMENTS)
def test_a_payment_written_reads_back_the_same(pay: dict[str, int]) -> None:
    cards = +Counter(pay)
    if not cards:  # nothing to pay is no payment: no control carries one
        with pytest.raises(Refusal):
            parse_pay_code(pay_code(pay))
        return
    code = pay_code(pay)
    assert len(code) <= MAX_CODE
    assert parse_pay_code(code) == cards
    assert pay_code(parse_pay_code(code)) == code  # one code per payment


@given(st.text(max_size=60) | st.from_regex(r"[a-z_]{1,12}[0-9]{1,6}(\+[a-z_]{1,12}[0-9]{1,6}){0,3}", fullmatch=True))
def test_any_text_is_read_as_a_payment_that_writes_back_or_refused(text: str) -> None:
    try:
        cards = parse_pay_code(text)
    except Refusal as exc:
        assert str(exc)
        return
    assert cards and all(n >= 1 for n in cards.values())
    assert parse_pay_code(pay_code(cards)) == cards
