"""The bot as a running process: the Discord client and its wiring (app.py), its configuration from the
environment (settings.py), its logging (logs.py), the slash commands' sync (sync.py) and the timers' loop
(scheduler.py)."""
