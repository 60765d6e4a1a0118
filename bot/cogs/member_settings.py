"""`/ttr settings`: a member's own settings (confirmations, their language, turn DMs, reminders, quiet hours),
the same in every server."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.cogs.ttr import TtrCog
from bot.present.confirm import (
    away_forbidden_text,
    away_too_long_text,
    bad_language_text,
    bad_quiet_hours_text,
    bad_reminders_text,
    bad_turn_dms_text,
    member_language_text,
    member_messages_text,
    member_settings_text,
    on_or_off_text,
    unknown_zone_text,
    zone_without_quiet_hours_text,
)
from bot.present.i18n import current_language, speaking
from bot.present.misread import Span
from bot.service.kinds import Language
from bot.service.member_settings import DAY_MINUTES, QuietHours, TurnDms, known_zone, time_zones
from bot.service.settings import MAX_AWAY_SECONDS
from bot.table.front import Front
from bot.table.parsing import NONE_WORDS, _bare, read_duration
from bot.views.replies import Refusal, guarded, private

ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
AUTOMATIC = "auto"
# the languages by their own names, and "automatic" (the member's Discord app's; the server's guild locale for
# /ttr config)
LANGUAGE_CHOICES = [
    app_commands.Choice(name="English", value=Language.EN.value),
    app_commands.Choice(name="svenska", value=Language.SV.value),
    app_commands.Choice(name="suomi", value=Language.FI.value),
    app_commands.Choice(name="automatic", value=AUTOMATIC),
]


# when "your turn" DMs come: every turn, once a turn has waited so long, or never (values: "every", seconds, "never")
TURN_DM_CHOICES = [
    app_commands.Choice(name="every turn", value="every"),
    app_commands.Choice(name="after 1 h", value="3600"),
    app_commands.Choice(name="after 3 h", value="10800"),
    app_commands.Choice(name="after 6 h", value="21600"),
    app_commands.Choice(name="after 12 h", value="43200"),
    app_commands.Choice(name="never", value="never"),
]
# a time zone offered first, by the language being spoken (quiet hours without one take it)
HOME_ZONES = {Language.EN: "UTC", Language.SV: "Europe/Stockholm", Language.FI: "Europe/Helsinki"}
COMMON_ZONES = ("Europe/Stockholm", "Europe/Helsinki", "Europe/London", "Europe/Berlin", "UTC", "America/New_York")
_QUIET = re.compile(r"([0-9]{1,2})(?:[:.]([0-9]{2}))?\s*[-\u2013\u2014]\s*([0-9]{1,2})(?:[:.]([0-9]{2}))?", re.ASCII)
MAX_TYPED = 40


def chosen_turn_dms(value: str) -> tuple[TurnDms, int]:
    """The turn DMs of a choice; a Refusal for a value the menu does not offer (a forged request)."""
    offered = {c.value for c in TURN_DM_CHOICES}
    if value not in offered:
        raise Refusal(bad_turn_dms_text())
    if value == "every":
        return TurnDms.EVERY, 0
    if value == "never":
        return TurnDms.NEVER, 0
    return TurnDms.AFTER, int(value)


def read_quiet_hours(typed: str) -> tuple[int, int] | None:
    """Quiet hours as typed ("22-07", "22:30-6:45"): (start, end) in minutes after midnight; None for "none"."""
    text = typed.strip()
    if len(text) > MAX_TYPED:
        raise Refusal(bad_quiet_hours_text(typed))
    if " ".join(_bare(text).split()) in NONE_WORDS:
        return None
    found = _QUIET.fullmatch(text)
    if found is None:
        raise Refusal(bad_quiet_hours_text(typed))
    h1, m1, h2, m2 = found.groups()
    times = []
    for hours, minutes in ((h1, m1), (h2, m2)):
        h, m = int(hours), int(minutes or 0)
        if not (0 <= h <= 24 and 0 <= m < 60) or (h == 24 and m):
            raise Refusal(bad_quiet_hours_text(typed))
        times.append((h * 60 + m) % DAY_MINUTES)
    if times[0] == times[1]:
        raise Refusal(bad_quiet_hours_text(typed))
    return times[0], times[1]


def chosen_language(value: str) -> Language | None:
    """The language of a choice (None: automatic); a Refusal for a value no menu offers (a forged request)."""
    if value == AUTOMATIC:
        return None
    if value in set(Language):
        return Language(value)
    raise Refusal(bad_language_text())


class MemberSettingsCog(TtrCog):
    """A member's own settings."""

    def __init__(self, ttr: app_commands.Group, front: Front) -> None:
        super().__init__(ttr)
        self.reading = front.service.reading  # the clock
        self.members = front.service.members
        self.runner = front.service.runner
        self.server_settings = front.service.settings
        self.languages = front.languages
        self.delivery = front.delivery

    @app_commands.command(name="settings", description="Your own settings (in every server); without options: see them")
    @app_commands.describe(
        confirmations="on: Draw tickets and a route chosen from a menu ask you to confirm first; off: they act at once",
        language="The language of your answers, private images and DMs (automatic: your Discord app's)",
        turn_dms="When a DM tells you it is your turn (every turn: instead of the notice in the channel)",
        reminders="on: the clock's reminders, the reserve's included; off: none",
        quiet_hours="Hours when I send you nothing, like 22-07 (held until they end; the clock runs on); none: off",
        timezone="The time zone of your quiet hours, like Europe/Stockholm",
        away='Away for a while, like "3d": the autopilot plays your casual games at once; none: back',
    )
    @app_commands.choices(confirmations=ON_OFF, language=LANGUAGE_CHOICES, turn_dms=TURN_DM_CHOICES, reminders=ON_OFF)
    async def settings(
        self,
        interaction: discord.Interaction,
        confirmations: str | None = None,
        language: str | None = None,
        turn_dms: str | None = None,
        reminders: str | None = None,
        quiet_hours: str | None = None,
        timezone: str | None = None,
        away: str | None = None,
    ) -> None:
        async def work() -> None:
            user = interaction.user.id
            # everything is read and checked before anything is saved: a refusal changes nothing
            if confirmations is not None and confirmations not in ("on", "off"):
                raise Refusal(on_or_off_text())  # only a forged request sends another value
            if reminders is not None and reminders not in ("on", "off"):
                raise Refusal(bad_reminders_text())
            wanted = None if language is None else chosen_language(language)
            away_for = None if away is None else await self._away_for(interaction, away)
            dms = None if turn_dms is None else chosen_turn_dms(turn_dms)
            settings = await self.members.member_settings(user)
            quiet = settings.quiet_hours
            if quiet_hours is not None or timezone is not None:
                zone = None if timezone is None else timezone.strip()
                if zone is not None and not known_zone(zone):
                    raise Refusal(unknown_zone_text(timezone or ""))
                hours = (quiet.start, quiet.end) if quiet is not None else None
                if quiet_hours is not None:
                    hours = read_quiet_hours(quiet_hours)
                if hours is None and zone is not None and quiet_hours is None:
                    raise Refusal(zone_without_quiet_hours_text())
                if hours is None:
                    quiet = None
                else:
                    zone = zone or (quiet.zone if quiet is not None else HOME_ZONES[current_language()])
                    quiet = QuietHours(hours[0], hours[1], zone)
            if confirmations is not None:
                settings = await self.members.set_confirmations(user, confirmations == "on")
            if language is not None:
                settings = await self.members.set_language(user, wanted)
            if dms is not None:
                settings = await self.members.set_turn_dms(user, *dms)
            if reminders is not None:
                settings = await self.members.set_reminders(user, reminders == "on")
            if quiet_hours is not None or timezone is not None:
                settings = await self.members.set_quiet_hours(user, quiet)
            if away is not None:
                settings = await self.members.set_away(user, away_for)
            options = (confirmations, language, turn_dms, reminders, quiet_hours, timezone, away)
            changed = any(o is not None for o in options)
            spoken = await self.languages.reader(interaction)  # the answer speaks the language just chosen
            with speaking(spoken):
                text = "\n".join(
                    [
                        member_settings_text(settings, changed=changed),
                        member_language_text(settings, spoken),
                        member_messages_text(settings, self.reading.now()),
                    ]
                )
                await private(interaction, text)
            if away is not None:
                await self._went_away(user, away_for)
            if quiet_hours is not None or timezone is not None:
                await self.delivery.notifier.release()  # what the old quiet hours held and the new ones do not

        await guarded(interaction, work)

    async def _away_for(self, interaction: discord.Interaction, typed: str) -> int | None:
        """How long the member is away, as typed ("3d"); None: back. Refused beyond what this server allows."""
        seconds = read_duration(typed, Span.DURATION)
        if seconds is None:
            return None
        if interaction.guild_id is not None:
            most = (await self.server_settings.guild_config(interaction.guild_id)).away_seconds
        else:
            most = MAX_AWAY_SECONDS
        if most <= 0:
            raise Refusal(away_forbidden_text())
        if seconds > most:
            raise Refusal(away_too_long_text(most))
        return seconds

    async def _went_away(self, user: int, seconds: int | None) -> None:
        """After the answer: away, the autopilot plays the member's waiting seats now; back, their summaries go."""
        if seconds is None:
            await self.delivery.notifier.release(back=user)
            return
        for result in await self.runner.play_away_turns(user):
            await self.delivery.deliver(result)

    @settings.autocomplete("timezone")
    async def timezone_choices(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        """Time zones whose name holds what was typed (the common ones first when nothing was)."""
        wanted = typed.strip().casefold().replace(" ", "_")[:MAX_TYPED]
        if not wanted:
            return [app_commands.Choice(name=z, value=z) for z in COMMON_ZONES]
        found = sorted(z for z in time_zones() if wanted in z.casefold())
        found.sort(key=lambda z: (not z.casefold().startswith(wanted), "/" not in z, z))
        return [app_commands.Choice(name=z, value=z) for z in found[:25]]
