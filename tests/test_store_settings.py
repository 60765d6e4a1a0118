"""Where the database lives: the settings, from the environment or a .env file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.runtime.settings import DEFAULT_DATABASE, Settings, SettingsError, read_env_file


def test_the_default_database_is_under_data(tmp_path: Path) -> None:
    assert Settings.from_env({}, env_file=tmp_path / "absent.env").database == Path("data/conductor.sqlite3")
    assert Settings().database == DEFAULT_DATABASE


def test_the_environment_names_the_database() -> None:
    settings = Settings.from_env({"CONDUCTOR_DATABASE": "/srv/ttr/db.sqlite3"}, env_file=None)
    assert settings.database == Path("/srv/ttr/db.sqlite3")


def test_a_dotenv_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "# Conductor settings\n\nexport OTHER=1\nCONDUCTOR_DATABASE = \"games/db.sqlite3\"\nEMPTY=\nQUOTED='a b'\n",
        encoding="utf-8",
    )
    assert read_env_file(env) == {
        "OTHER": "1",
        "CONDUCTOR_DATABASE": "games/db.sqlite3",
        "EMPTY": "",
        "QUOTED": "a b",
    }
    assert Settings.from_env({}, env_file=env).database == Path("games/db.sqlite3")
    assert Settings.from_env({"CONDUCTOR_DATABASE": "x.sqlite3"}, env_file=env).database == Path("x.sqlite3")


def test_an_empty_database_setting_is_refused() -> None:
    with pytest.raises(SettingsError, match="CONDUCTOR_DATABASE is set but empty"):
        Settings.from_env({"CONDUCTOR_DATABASE": "  "}, env_file=None)


def test_a_malformed_dotenv_line_is_named(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("A=1\nthis is not a setting\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"line 2: expected KEY=VALUE"):
        Settings.from_env({}, env_file=env)


def test_the_example_file_of_the_project_reads(tmp_path: Path) -> None:
    example = Path(__file__).parent.parent / ".env.example"
    assert read_env_file(example)["CONDUCTOR_DATABASE"] == "data/conductor.sqlite3"
