"""Shared test settings."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Property tests play whole games; a per-example deadline would only make them flaky.
settings.register_profile("conductor", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("ci", parent=settings.get_profile("conductor"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "conductor")
