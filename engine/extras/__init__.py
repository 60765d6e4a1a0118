"""Rules that only some maps have, one module each, and the hooks the core calls.

registry.py lists them and gathers those a board uses; base.py says what a
rule may add. merchandise (Amsterdam), tourists (San Francisco), mandala
(India), country_tickets and tunnels (Switzerland), ferries (India, San
Francisco).
"""
