"""The table: where Discord meets the game service, one module per job.

- `front`: the parts below, wired together once per bot.
- `lookup`: finding the game a request is about, and the player who asks.
- `lobby`: opening, joining, leaving, starting and cancelling games.
- `play`: a member's moves and what they may look at, answered privately.
- `decisions`: the private panel of what a player must decide now.
- `actions`, `controls`: the actions of buttons, menus and commands, and the one handler table.
- `parsing`: reading what members type and what controls send back.
- `stage`: the stage message of each game (posting, generations, the clock's line, recovery, retries).
- `delivery`: how each action's result reaches people (the channel, DMs, reminders, the moderators' log).
"""
