"""Private answers to moderators and to the server's settings: refusals, what a moderator's command did."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.clock import duration_text, settings_text
from bot.present.confirm import language_name
from bot.present.escape import quoted, shown
from bot.present.i18n import N_, _, ngettext, pgettext
from bot.service import GuildConfig
from bot.service.kinds import Language

# the English text (a refusal is translated where it is shown: `not_a_moderator_text()`)
NOT_A_MODERATOR = N_(
    "Only this server's game moderators can use `/ttrmod`: members who may manage the server, "
    "or who have the moderator role set with `/ttr config`."
)


def not_a_moderator_text() -> str:
    return _(NOT_A_MODERATOR)


def servers_only_text() -> str:
    return _("Moderator commands work in a server's channels only.")


def no_game_in_progress_text() -> str:
    return _("There is no game in progress in this channel: use `/ttrmod` in the game's channel.")


def no_such_player_text(text: str, game_id: int, players: Sequence[str]) -> str:
    """A seat named by a moderator that no player of the game has; `players` are the game's players."""
    named = ", ".join(shown(p) for p in players)
    if not named:
        return _("There is no player {name} in game #{id}. The players: nobody yet.").format(
            name=quoted(text), id=game_id
        )
    return _("There is no player {name} in game #{id}. The players: {players}.").format(
        name=quoted(text), id=game_id, players=named
    )


def moderator_note(note: str, reason: str | None) -> str:
    """A moderator's action announced in the channel, with the reason they gave if they made it public."""
    if reason is None:
        return _("**Moderator:** {note}").format(note=note)
    return _("**Moderator:** {note} Reason: {reason}").format(note=note, reason=shown(" ".join(reason.split())))


def paused_answer(game_id: int) -> str:
    return _("Game #{id} is paused. `/ttrmod resume` starts its clocks again.").format(id=game_id)


def resumed_answer(game_id: int) -> str:
    return _("Game #{id} goes on; its deadlines moved on by the pause.").format(id=game_id)


def no_extra_time_text() -> str:
    return _('Give the extra time, like "12h" or "1d".')


def extended_answer(notes: Sequence[str]) -> str:
    """What an extension did, as the channel is told it."""
    return _("Done: {notes}").format(notes=" ".join(notes))


def bot_member_text() -> str:
    return _("A bot cannot take a seat; `/ttrmod autopilot` hands a seat to the autopilot.")


def replaced_answer(mention: str, player: str, game_id: int) -> str:
    return _("{mention} plays {player}'s seat in game #{id} now.").format(
        mention=mention, player=shown(player), id=game_id
    )


def autopilot_answer(player: str, game_id: int, *, on: bool) -> str:
    if on:
        return _("{player}'s seat in game #{id}: the autopilot plays it.").format(player=shown(player), id=game_id)
    return _("{player}'s seat in game #{id}: its member plays it again.").format(player=shown(player), id=game_id)


def undone_answer(count: int, game_id: int) -> str:
    return ngettext("Took back {count} move in game #{id}.", "Took back {count} moves in game #{id}.", count).format(
        count=count, id=game_id
    )


def confirm_button_labels(end: bool) -> tuple[str, str]:
    """The labels of the buttons under an undo preview (`end` False) or an end's question: confirm, cancel."""
    confirm = pgettext("button", "End the game") if end else pgettext("button", "Take the moves back")
    return confirm, pgettext("button", "Cancel")


def undo_cancelled_answer(game_id: int) -> str:
    return _("Nothing was taken back in game #{id}.").format(id=game_id)


def confirm_not_yours_text(end: bool) -> str:
    if end:
        return _("Only the moderator who asked for this end can confirm or cancel it.")
    return _("Only the moderator who asked for this undo can confirm or cancel it.")


def confirm_stale_text(end: bool, lifetime: float) -> str:
    """A press on an undo preview or an end's question answered already, or older than `lifetime` seconds."""
    if end:
        text = _("This question is out of date (answered already, or older than {duration}): run `/ttrmod end` again.")
    else:
        text = _(
            "This undo preview is out of date (answered already, or older than {duration}): run `/ttrmod undo` again."
        )
    return text.format(duration=duration_text(lifetime))


def end_question_text(game_id: int, title: str, *, scored: bool, reopen_hours: int, counted: bool = False) -> str:
    """What a moderator is asked before a game ends (`counted`: a tournament's table, whose end the tournament
    counts, so that it is final)."""
    if counted and not scored:
        text = _(
            "End game #{id} ({title}) now, abandoned without a result? It is a tournament's table: the tournament "
            "counts it as void, so this end is final: it cannot be reopened."
        )
    elif scored:
        text = _(
            "End game #{id} ({title}) now, scored as it stands, with winners? "
            "The final scores show every player's tickets, so this end is final: it cannot be reopened."
        )
    else:
        text = _(
            "End game #{id} ({title}) now, abandoned without a result? "
            "`/ttrmod reopen` can bring it back as it was within {hours} h, "
            "unless a new game is opened in this channel first."
        )
    return text.format(id=game_id, title=shown(title), hours=reopen_hours)


def end_cancelled_answer(game_id: int) -> str:
    return _("Game #{id} goes on; nothing was ended.").format(id=game_id)


def ended_answer(game_id: int, *, scored: bool, counted: bool = False) -> str:
    if counted and not scored:
        text = _("Game #{id} is over: abandoned without a result. Its tournament counts it as void; this end is final.")
    elif scored:
        text = _("Game #{id} is over: scored as it stood. This end is final.")
    else:
        text = _(
            "Game #{id} is over: abandoned without a result. `/ttrmod reopen` brings it back as it was, for a while."
        )
    return text.format(id=game_id)


def reopened_answer(game_id: int) -> str:
    return _("Game #{id} runs again as it was when it ended.").format(id=game_id)


def empty_log_text() -> str:
    """The log file of a game in which nothing has happened."""
    return _("Nothing has happened in this game yet.") + "\n"


def autopilot_label(label: str) -> str:
    """A player in the autocomplete list whose seat the autopilot plays."""
    return _("{player} - autopilot").format(player=label)


def managers_only_text() -> str:
    return _("Only members who may manage this server can change its settings.")


def role_step_text() -> str:
    """After a moderator role is set: the one step left, in Discord's own settings."""
    return _(
        "One step left: Discord shows `/ttrmod` only to members who may manage the server. Open "
        "Server Settings > Integrations > Conductor, choose `/ttrmod` and allow the moderator role to use it."
    )


def autopilot_level_word(level: str) -> str:
    """An autopilot level ("steady", "strong", "expert") in words; an unknown one as it is."""
    words = {
        "steady": lambda: pgettext("autopilot level", "steady"),
        "strong": lambda: pgettext("autopilot level", "strong"),
        "expert": lambda: pgettext("autopilot level", "expert"),
    }
    word = words.get(level)
    return word() if word else level


def settings_answer(config: GuildConfig) -> str:
    """The server's settings: the moderator role, the moderators' log channel, the clock of new games, the limits."""
    role, channel = config.moderator_role_id, config.mod_log_channel_id
    lines = [
        _("Settings of this server:"),
        _("Moderator role: {role}").format(role=f"<@&{role}>")
        if role
        else _("Moderator role: none (server managers only)"),
        _("Moderator log channel: {channel}").format(channel=f"<#{channel}>")
        if channel
        else _("Moderator log channel: none"),
        _("Clock of new games: {clock}").format(clock=settings_text(config.clock)),
        _("Open games (lobby or running): at most {member} hosted by one member, {server} in the server").format(
            member=config.member_open_games, server=config.server_open_games
        ),
        _("Casual games rated: {state}").format(
            state=pgettext("switch", "on") if config.rated_casual else pgettext("switch", "off")
        ),
        _(
            "Autopilot of new games: {level} (for timed-out and handed-over seats, "
            "and the default for autopilot players)"
        ).format(level=autopilot_level_word(config.autopilot_level.value)),
        _("Away: members may go away for up to {duration} (the autopilot plays their casual games at once)").format(
            duration=duration_text(config.away_seconds)
        )
        if config.away_seconds
        else _("Away: not allowed (casual games wait for every member)"),
        _("Turns: a new message every turn (`turn_messages` on)")
        if config.turn_messages
        else _("Turns: each game is one table message, edited after every move (`turn_messages` off)"),
        _("Planned turns: players may plan their next turn (`plans` on)")
        if config.plans
        else _("Planned turns: off in this server (`plans` off)"),
        _(
            "Log thread: each table keeps a thread with a line per turn (`log_thread` on; not at tournament "
            "tables, which are threads themselves)"
        )
        if config.log_thread
        else _("Log thread: none (`log_thread` off)"),
    ]
    return "\n".join(lines)


def turn_messages_switch_text() -> str:
    return _("`turn_messages` is `on` or `off`: nothing was changed.")


def log_thread_switch_text() -> str:
    return _("`log_thread` is `on` or `off`: nothing was changed.")


def server_language_text(config: GuildConfig, spoken: Language) -> str:
    """The language line of a server's settings; `spoken`: the language of its public texts now."""
    if config.language is None:
        return _(
            "Language of the channel messages and board images: automatic, the server's language in Discord "
            "(now {language}). Members' own answers and DMs follow their own language."
        ).format(language=language_name(spoken))
    return _(
        "Language of the channel messages and board images: {language}. "
        "Members' own answers and DMs follow their own language."
    ).format(language=language_name(config.language))
