"""Private answers to moderators and to the server's settings: refusals, what a moderator's command did."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.clock import duration_text, settings_text
from bot.present.confirm import language_name
from bot.present.escape import quoted, shown
from bot.present.i18n import _
from bot.present.words import plural
from bot.service import GuildConfig
from bot.service.kinds import Language

NOT_A_MODERATOR = (
    "Only this server's game moderators can use `/ttrmod`: members who may manage the server, "
    "or who have the moderator role set with `/ttr config`."
)


def servers_only_text() -> str:
    return "Moderator commands work in a server's channels only."


def no_game_in_progress_text() -> str:
    return "There is no game in progress in this channel: use `/ttrmod` in the game's channel."


def no_such_player_text(text: str, game_id: int, players: Sequence[str]) -> str:
    """A seat named by a moderator that no player of the game has; `players` are the game's players."""
    named = ", ".join(shown(p) for p in players)
    return f"There is no player {quoted(text)} in game #{game_id}. The players: {named or 'nobody yet'}."


def moderator_note(note: str, reason: str | None) -> str:
    """A moderator's action announced in the channel, with the reason they gave if they made it public."""
    if reason is None:
        return f"**Moderator:** {note}"
    return f"**Moderator:** {note} Reason: {shown(' '.join(reason.split()))}"


def paused_answer(game_id: int) -> str:
    return f"Game #{game_id} is paused. `/ttrmod resume` starts its clocks again."


def resumed_answer(game_id: int) -> str:
    return f"Game #{game_id} goes on; its deadlines moved on by the pause."


def no_extra_time_text() -> str:
    return 'Give the extra time, like "12h" or "1d".'


def extended_answer(notes: Sequence[str]) -> str:
    """What an extension did, as the channel is told it."""
    return "Done: " + " ".join(notes)


def bot_member_text() -> str:
    return "A bot cannot take a seat; `/ttrmod autopilot` hands a seat to the autopilot."


def replaced_answer(mention: str, player: str, game_id: int) -> str:
    return f"{mention} plays {shown(player)}'s seat in game #{game_id} now."


def autopilot_answer(player: str, game_id: int, *, on: bool) -> str:
    what = "the autopilot plays it" if on else "its member plays it again"
    return f"{shown(player)}'s seat in game #{game_id}: {what}."


def undone_answer(count: int, game_id: int) -> str:
    return f"Took back {plural(count, 'move')} in game #{game_id}."


def confirm_button_labels(end: bool) -> tuple[str, str]:
    """The labels of the buttons under an undo preview (`end` False) or an end's question: confirm, cancel."""
    return ("End the game" if end else "Take the moves back"), "Cancel"


def undo_cancelled_answer(game_id: int) -> str:
    return f"Nothing was taken back in game #{game_id}."


def confirm_not_yours_text(end: bool) -> str:
    what = "end" if end else "undo"
    return f"Only the moderator who asked for this {what} can confirm or cancel it."


def confirm_stale_text(end: bool, lifetime: float) -> str:
    """A press on an undo preview or an end's question answered already, or older than `lifetime` seconds."""
    what, command = ("question", "end") if end else ("undo preview", "undo")
    return (
        f"This {what} is out of date (answered already, or older than {duration_text(lifetime)}): "
        f"run `/ttrmod {command}` again."
    )


def end_question_text(game_id: int, title: str, *, scored: bool, reopen_hours: int) -> str:
    """What a moderator is asked before a game ends."""
    how = "scored as it stands, with winners" if scored else "abandoned without a result"
    return (
        f"End game #{game_id} ({shown(title)}) now, {how}? "
        f"`/ttrmod reopen` can bring it back as it was within {reopen_hours} h, "
        "unless a new game is opened in this channel first."
    )


def end_cancelled_answer(game_id: int) -> str:
    return f"Game #{game_id} goes on; nothing was ended."


def ended_answer(game_id: int, *, scored: bool) -> str:
    how = "scored as it stood" if scored else "abandoned without a result"
    return f"Game #{game_id} is over: {how}. `/ttrmod reopen` brings it back as it was, for a while."


def reopened_answer(game_id: int) -> str:
    return f"Game #{game_id} runs again as it was when it ended."


def empty_log_text() -> str:
    """The log file of a game in which nothing has happened."""
    return "Nothing has happened in this game yet.\n"


def autopilot_label(label: str) -> str:
    """A player in the autocomplete list whose seat the autopilot plays."""
    return f"{label} - autopilot"


def managers_only_text() -> str:
    return "Only members who may manage this server can change its settings."


def role_step_text() -> str:
    """After a moderator role is set: the one step left, in Discord's own settings."""
    return (
        "One step left: Discord shows `/ttrmod` only to members who may manage the server. Open "
        "Server Settings > Integrations > Conductor, choose `/ttrmod` and allow the moderator role to use it."
    )


def settings_answer(config: GuildConfig) -> str:
    """The server's settings: the moderator role, the moderators' log channel, the clock of new games, the limits."""
    role, channel = config.moderator_role_id, config.mod_log_channel_id
    return (
        "Settings of this server:\n"
        f"Moderator role: {f'<@&{role}>' if role else 'none (server managers only)'}\n"
        f"Moderator log channel: {f'<#{channel}>' if channel else 'none'}\n"
        f"Clock of new games: {settings_text(config.clock)}\n"
        f"Open games (lobby or running): at most {config.member_open_games} hosted by one member, "
        f"{config.server_open_games} in the server\n"
        f"Casual games rated: {'on' if config.rated_casual else 'off'}\n"
        f"Autopilot of new games: {config.autopilot_level.value} (for timed-out and handed-over seats, "
        "and the default for autopilot players)"
    )


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
