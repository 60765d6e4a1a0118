"""Confirmations in words: drawing tickets, a claim with its payment, and a member's own settings."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from bot.present.cards import format_cards
from bot.present.clock import duration_text, timestamp
from bot.present.escape import quoted
from bot.present.i18n import _, map_, ngettext, npgettext, pgettext
from bot.present.suggestions import route_label
from bot.present.words import colour_name, spaces_counted, ticket_word, tickets_plural
from bot.service.kinds import Language
from bot.service.member_settings import MemberSettings, QuietHours, TurnDms
from maps import Route, Rules


def confirm_label() -> str:
    return pgettext("button", "Confirm")


def cancel_label() -> str:
    return pgettext("button", "Cancel")


def draw_tickets_label(rules: Rules) -> str:
    """The turn message's button that draws tickets."""
    return pgettext("button", "Draw {tickets}").format(tickets=tickets_plural(rules))


def draw_tickets_question(rules: Rules) -> str:
    count = rules.draw_tickets
    return _(
        "Draw {count} destination {tickets} (this is your whole turn)? You keep at least {keep} of them. "
        "Your own {own} are under *My hand*. `/ttr settings confirmations:off` skips this question."
    ).format(count=count, tickets=ticket_word(rules, count), keep=rules.draw_keep, own=tickets_plural(rules))


def route_kind(route: Route, rules: Rules | None = None) -> str:
    """track, ferry or tunnel, in words (of the rulebook of `rules`' map)."""
    map_id = rules.name if rules is not None else ""
    if route.tunnel:
        return map_(map_id, "tunnel (more cards may be asked when it is claimed)")
    if route.ferries:
        # the map's own wild card pays the ferry spaces (India's locomotives, San Francisco's ferry cards)
        if map_id == "india":
            text = npgettext(
                "India",
                "ferry ({count} space paid with locomotives)",
                "ferry ({count} spaces paid with locomotives)",
                route.ferries,
            )
        elif map_id == "san_francisco":
            text = npgettext(
                "San Francisco",
                "ferry ({count} space paid with ferry cards)",
                "ferry ({count} spaces paid with ferry cards)",
                route.ferries,
            )
        else:
            text = ngettext(
                "ferry ({count} space paid with wild cards)",
                "ferry ({count} spaces paid with wild cards)",
                route.ferries,
            )
        return text.format(count=route.ferries)
    return map_(map_id, "track")


def claim_question(rules: Rules, route: Route, pay: Mapping[str, int], others: int) -> str:
    """The route, the exact payment, and whether other payments can be chosen."""
    lines = [
        map_(rules.name, "Claim **{route}**?").format(route=route_label(route)),
        _("{a} to {b}: {length}, {colour}, {kind}.").format(
            a=route.a,
            b=route.b,
            length=spaces_counted(route.length),
            colour=colour_name(route.color),
            kind=route_kind(route, rules),
        ),
        _("You pay: {cards}.").format(cards=format_cards(rules, pay)),
    ]
    if others:
        lines.append(
            ngettext(
                "{count} other payment possible: choose it in the menu to pay that way instead.",
                "{count} other payments possible: choose one in the menu to pay that way instead.",
                others,
            ).format(count=others)
        )
    return "\n".join(lines)


def cancelled_text() -> str:
    return _("Cancelled: nothing was done. You can still make any move.")


def member_settings_text(settings: MemberSettings, *, changed: bool) -> str:
    state = pgettext("switch", "on") if settings.confirmations else pgettext("switch", "off")
    what = (
        _(
            "*Draw tickets* and a route chosen from the claim menu (or `/ttr claim` without `pay`) "
            "ask you to confirm first"
        )
        if settings.confirmations
        else _("*Draw tickets* and a route chosen from the claim menu act at once")
    )
    head = _("Saved. ") if changed else ""
    return head + _(
        "Your settings (the same in every server):\n"
        "- confirmations: **{state}**: {what}. Change with `/ttr settings confirmations:on` or `off`."
    ).format(state=state, what=what)


def on_or_off_text() -> str:
    return _("Confirmations are `on` or `off`: nothing was changed.")


def language_name(language: Language) -> str:
    """A language by its own name, as its speakers write it (the same in every language)."""
    return {Language.EN: "English", Language.SV: "svenska", Language.FI: "suomi"}[language]


def member_language_text(settings: MemberSettings, spoken: Language) -> str:
    """The language line of a member's settings; `spoken`: the language their private texts are in now."""
    if settings.language is None:
        return _(
            "- language: **automatic**: your Discord app's language (now {language}). "
            "Change with `/ttr settings language:`."
        ).format(language=language_name(spoken))
    return _(
        "- language: **{language}** for your answers, private images and DMs. "
        "`/ttr settings language:automatic` follows your Discord app again."
    ).format(language=language_name(settings.language))


def bad_language_text() -> str:
    return _("The language is English, svenska, suomi or automatic: nothing was changed.")


def member_messages_text(settings: MemberSettings, now: datetime) -> str:
    """The lines of a member's settings about what the bot sends them: turn DMs, reminders, quiet hours."""
    if settings.turn_dms is TurnDms.NEVER:
        turn = _(
            "- turn DMs: **never** (the default): a short notice in the game's channel mentions you when it is "
            "your turn. Change with `/ttr settings turn_dms:`."
        )
    elif settings.turn_dms is TurnDms.AFTER:
        turn = _(
            "- turn DMs: **after {duration}**: a DM only when your turn has waited {duration} "
            "(the notice in the game's channel mentions you at once). Change with `/ttr settings turn_dms:`."
        ).format(duration=duration_text(settings.turn_dm_wait))
    else:
        turn = _(
            "- turn DMs: **every turn**: a DM with what changed since your last turn, instead of the notice "
            "in the game's channel. Change with `/ttr settings turn_dms:`."
        )
    if settings.reminders:
        remind = _(
            "- reminders: **on**: the clock reminds you before your turn time is up, when your reserve starts "
            "and before it runs out. `/ttr settings reminders:off` stops them."
        )
    else:
        remind = _(
            "- reminders: **off**: no reminders of the clock (the deadline is on the turn message). "
            "`/ttr settings reminders:on` brings them back."
        )
    return "\n".join([turn, remind, quiet_hours_line(settings.quiet_hours), away_line(settings, now)])


def away_line(settings: MemberSettings, now: datetime) -> str:
    if settings.away_until is None or not settings.away_at(now):
        return _(
            "- away: **no**. `/ttr settings away:3d` lets the autopilot play your seats in casual games at once "
            "while you are away (as long as the server allows); you get one summary per game when you are back."
        )
    return _(
        "- away: **until {time}**: the autopilot plays your seats in casual games at once (not in tournaments), "
        "and you get one summary per game when you are back. `/ttr settings away:none` ends it now."
    ).format(time=timestamp(settings.away_until, "f"))


def away_forbidden_text() -> str:
    return _("This server does not let its members go away (its casual games wait for them): nothing was changed.")


def away_too_long_text(most: int) -> str:
    return _("This server allows an away of at most {duration}: nothing was changed.").format(
        duration=duration_text(most)
    )


def clock_time(minutes: int) -> str:
    """A time of day, 24-hour: "07:30"."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def quiet_hours_line(quiet: QuietHours | None) -> str:
    if quiet is None:
        return _(
            "- quiet hours: **none**. `/ttr settings quiet_hours:22-07 timezone:Europe/Stockholm` makes me "
            "hold every DM between those hours and send it when they end."
        )
    return _(
        "- quiet hours: **{start}-{end}** ({zone}): I send you nothing then; what falls due is sent when they "
        "end. The game's clock runs on meanwhile: quiet hours hold messages, not time. "
        "`/ttr settings quiet_hours:none` ends them."
    ).format(start=clock_time(quiet.start), end=clock_time(quiet.end), zone=quiet.zone)


def bad_turn_dms_text() -> str:
    return _("Turn DMs are sent on every turn, after a wait from the list, or never: nothing was changed.")


def bad_reminders_text() -> str:
    return _("Reminders are `on` or `off`: nothing was changed.")


def bad_quiet_hours_text(typed: str) -> str:
    return _(
        "I cannot read {typed} as quiet hours: write two different times of day like `22-07` or "
        "`22:30-06:45` (24-hour), or `none`. Nothing was changed."
    ).format(typed=quoted(typed))


def unknown_zone_text(typed: str) -> str:
    return _(
        "{typed} is not a time zone I know: pick one from the list, like `Europe/Stockholm` or "
        "`Europe/Helsinki`. Nothing was changed."
    ).format(typed=quoted(typed))


def zone_without_quiet_hours_text() -> str:
    return _(
        "A time zone goes with quiet hours: set them together, like "
        "`/ttr settings quiet_hours:22-07 timezone:Europe/Stockholm`. Nothing was changed."
    )
