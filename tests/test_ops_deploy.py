"""The deploy files (deploy/): the Prometheus scrape configuration and alert rules read as YAML with the shape
Prometheus expects, every metric and label an alert names exists in the bot's metrics, and the systemd units
restart on failure and stop the bot with SIGTERM."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.mini_yaml import YamlError, load
from prometheus_client.parser import text_string_to_metric_families

from bot.runtime.metrics import Metrics

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
SELECTOR = re.compile(r"\b([a-z_:][a-z0-9_:]*)\s*\{([^}]*)\}")
GROUPING = re.compile(r"\bby\s*\(([^)]*)\)")
PROMQL_WORDS = {"sum", "by", "rate", "histogram_quantile", "le", "job", "and", "or", "unless", "without"}
DURATION = re.compile(r"\d+[smhd]")


def read(name: str) -> Any:
    text = (DEPLOY / name).read_text(encoding="utf-8")
    found = load(text)
    if importlib.util.find_spec("yaml") is not None:  # where PyYAML is installed, it reads the same
        import yaml  # type: ignore[import-untyped]

        assert yaml.safe_load(text) == found
    return found


def exposed() -> tuple[set[str], dict[str, set[str]]]:
    """The sample names the bot's metrics may have, and each one's label names."""
    metrics = Metrics()
    names: set[str] = set()
    labels: dict[str, set[str]] = {}
    own = {c._name: set(c._labelnames) for c in vars(metrics).values() if hasattr(c, "_labelnames")}
    for family in text_string_to_metric_families(metrics.exposition().decode()):
        base = family.name
        kind_names = {
            "counter": [f"{base}_total"],
            "histogram": [f"{base}_bucket", f"{base}_count", f"{base}_sum"],
        }.get(family.type, [base])
        for name in kind_names:
            names.add(name)
            labels[name] = {"shards", *own.get(base, own.get(f"{base}_total", set()))}
            if name.endswith("_bucket"):
                labels[name].add("le")
    names.add("up")  # Prometheus' own, per target
    labels["up"] = {"job", "instance"}
    return names, labels


def alert_rules() -> list[dict[str, Any]]:
    groups = read("alerts.yml")["groups"]
    assert isinstance(groups, list) and groups
    return [rule for group in groups for rule in group["rules"]]


def test_the_scrape_configuration_scrapes_the_bot_and_loads_the_alerts() -> None:
    config = read("prometheus.yml")
    assert set(config) == {"global", "rule_files", "scrape_configs"}
    assert DURATION.fullmatch(config["global"]["scrape_interval"])
    for rules in config["rule_files"]:
        assert (DEPLOY / rules).is_file()
    (job,) = config["scrape_configs"]
    assert job["job_name"] == "conductor" and job["metrics_path"] == "/metrics"
    targets = [t for static in job["static_configs"] for t in static["targets"]]
    assert targets and all(re.fullmatch(r"[\w.\-\[\]:]+:\d+", t) for t in targets)


def test_each_alert_has_its_parts() -> None:
    rules = alert_rules()
    names = [r["alert"] for r in rules]
    assert len(names) == len(set(names))
    for rule in rules:
        assert set(rule) == {"alert", "expr", "for", "labels", "annotations"}, rule
        assert DURATION.fullmatch(rule["for"]) and rule["labels"]["severity"] in ("page", "warning")
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]
        expr = rule["expr"]
        assert expr.count("(") == expr.count(")") and expr.count("{") == expr.count("}")
    # what the issue asks to be alerted on: the bot not ready, timers late, 429s, store failures
    exprs = " ".join(r["expr"] for r in rules)
    for family in ("conductor_ready", "conductor_timer_lateness_seconds", "conductor_discord_rate_limited_total"):
        assert family in exprs
    assert "conductor_store_write_failures_total" in exprs


def test_every_metric_and_label_an_alert_names_exists() -> None:
    names, labels = exposed()
    for rule in alert_rules():
        expr = rule["expr"]
        bare = re.sub(r"\bby\s*\([^)]*\)|\{[^}]*\}|\[[^\]]*\]", " ", expr)  # groupings, selectors, ranges out
        metrics_used = set(NAME.findall(bare)) - PROMQL_WORDS
        assert metrics_used and metrics_used <= names, (rule["alert"], metrics_used - names)
        for metric, selector in SELECTOR.findall(expr):
            keys = {part.split("=")[0].strip() for part in selector.split(",") if part.strip()}
            assert keys <= labels[metric], (rule["alert"], metric, keys - labels[metric])
        for grouping in GROUPING.findall(expr):
            keys = {k.strip() for k in grouping.split(",")}
            assert all(keys <= labels[m] for m in metrics_used), (rule["alert"], keys)


def test_the_yaml_reader_refuses_what_it_cannot_read() -> None:
    assert load("a:\n  - b: 1\n    c: 'x'\n  - \"d\"\ne:\n") == {"a": [{"b": 1, "c": "x"}, "d"], "e": None}
    for wrong in ("a: 1\n a: 2\n", "a: {b: 1}\n", "a: 1\na: 2\n", "a:\n\t- b\n", "a: 'open\n"):
        with pytest.raises(YamlError):
            load(wrong)


def unit(name: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit: each section's settings (a setting given twice keeps both values)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in (DEPLOY / name).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, sep, value = line.partition("=")
        assert sep and current is not None, line
        current.setdefault(key, []).append(value)
    return sections


@pytest.mark.parametrize("name", ["conductor.service", "conductor@.service"])
def test_the_service_unit_restarts_on_failure_and_stops_with_sigterm(name: str) -> None:
    service = unit(name)["Service"]
    assert service["Restart"] == ["on-failure"]
    assert service["KillSignal"] == ["SIGTERM"] and service["KillMode"] == ["mixed"]
    assert service["ExecStart"][0].endswith("python -m bot run")
    assert service["RestartPreventExitStatus"] == ["2"]  # bad settings: restarting cannot help
    environment = dict(e.split("=", 1) for e in service.get("Environment", []))
    address = environment.get("CONDUCTOR_METRICS_ADDRESS", "127.0.0.1:9464")
    assert address.startswith("127.0.0.1:")  # loopback unless the operator says otherwise
    assert unit(name)["Install"]["WantedBy"] == ["multi-user.target"]
