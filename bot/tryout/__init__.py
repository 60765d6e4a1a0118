"""The try-out: the real bot in a local simulated Discord, played in a browser page (`python -m bot try`)."""
