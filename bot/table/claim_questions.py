"""A claim's question, shown: what the member must say before the claim is made (bot/service/claims.py's `Ask`).

The service answers a claim it will not make yet with a `ClaimQuestion`; here
it is worded (bot/present) and given its controls (bot/views): the route and
the payment with *Confirm* / *Cancel* and a menu of the other payments, the
menu of payments where the colour is a choice, or the menu of the two
souvenirs. Each control carries the route id and the payment code, so its
answer is the same single service call with the choice added.
"""

from __future__ import annotations

import discord

from bot.present.claims import payment_prompt, souvenir_prompt
from bot.present.confirm import claim_question
from bot.present.suggestions import route_label
from bot.service import GameInfo
from bot.service.claims import Ask, ClaimQuestion
from bot.views import panels
from bot.views.confirm import claim_confirm_view
from bot.views.pay_codes import pay_code
from maps import load_board


def question_panel(info: GameInfo, question: ClaimQuestion, version: int | None) -> tuple[str, discord.ui.View]:
    """The words and controls of a claim's question. `version`: the one the asking control was shown at (None from
    a typed command); a confirmation is always shown at the game's version now (the service checked the control's)."""
    rules, route = load_board(info.map).rules, question.route
    if question.ask is Ask.CONFIRM:
        others = len(question.payments) - 1
        view = claim_confirm_view(info.id, question.version, rules, route.id, question.pay, question.payments)
        return claim_question(rules, route, question.pay, others), view
    shown = version if version is not None else question.version
    if question.ask is Ask.PAYMENT:
        view = panels.payment_view(info.id, shown, rules, route.id, question.payments)
        return payment_prompt(route_label(route)), view
    ends = [(s.place, s.symbol) for s in question.souvenirs]
    return souvenir_prompt(), panels.souvenir_view(info.id, shown, route.id, pay_code(question.pay), ends)
