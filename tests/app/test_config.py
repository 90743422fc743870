"""The configuration file: defaults, validation messages that name the key, round trips."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.config import (
    CONFIG_ENV,
    Config,
    ConfigError,
    dumps,
    load_config,
    load_config_text,
    save_config,
)


def test_defaults_work_with_the_simulated_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONFIG_ENV, raising=False)
    monkeypatch.setenv("HOME", "/nonexistent-home")
    config = load_config()
    assert config == Config()
    assert config.dice.source == "auto" and config.table.port == ""
    assert config.display.fullscreen is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[dice]\nsorce = "wells"', "[dice] sorce: unknown key; allowed: source"),
        ("[dices]\nsource = 1", "[dices]: unknown section; allowed: table, dice, referee"),
        ('[dice]\nsource = "coins"', "[dice] source: 'coins' is not allowed; allowed: auto, wells"),
        ("[dice]\nsource = 6", "[dice] source: 6 is not a string; allowed: auto, wells"),
        ('[referee]\nsettle_ms = "300"', '[referee] settle_ms: "300" is not an integer'),
        ("[referee]\nsettle_ms = 10", "[referee] settle_ms: 10 is out of range; allowed: an "),
        ("[referee]\ndice_rest_ms = 100", "[referee] dice_rest_ms: 100 is out of range; allowed"),
        ("[speech]\nenabled = 1", "[speech] enabled: 1 is not true or false; allowed: true"),
        ("[speech]\nvolume = true", "[speech] volume: true is not an integer"),
        ('[rules]\nprofile = "chess"', "[rules] profile: 'chess' is not a rule profile; allowed: "),
        ("[pins]\nmenu = 40", "[pins] menu: 40 is not a usable GPIO (BCM) number; allowed: a G"),
        ("[pins]\nback = 5", "[pins] back: GPIO 5 is already used by done_white; allowed: a d"),
        ('[installer]\npin = "12a4"', "[installer] pin: '12a4' is not 4 to 8 digits"),
        ("[installer]\npin = 1234", "[installer] pin: 1234 is not a string; allowed: a string"),
        ("[tutor]\nbad = 0.2", "[tutor] bad: the thresholds must grow"),
        ("[tutor]\nbad = 0.03", "allowed: 0 < doubtful < bad < very_bad"),
        ('[tutor]\nevaluator = "deep"', "[tutor] evaluator: 'deep' is not allowed; allowed: auto,"),
        ("[tutor]\nplies = 4", "[tutor] plies: 4 is out of range; allowed: an integer 0-3"),
        ("[tutor]\ntimeout = 0", "[tutor] timeout: 0.0 is out of range; allowed: a number 1-600"),
        ('[tutor]\ntimeout = "5"', '[tutor] timeout: "5" is not a number'),
        ('[tutor]\nplayer_slot = "a b"', "[tutor] player_slot: 'a b' is not 1 to 40 letters"),
        ('[tutor]\nplayer_slot = ""', "[tutor] player_slot: '' is not 1 to 40 letters"),
        ("dice = 3", "dice: must be a [dice] table of keys, not a value"),
        ("[dice\nsource = 1", "is not valid TOML"),
    ],
)
def test_a_bad_setting_is_named_with_what_is_allowed(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config_text(text)
    assert message in str(caught.value)


def test_every_rule_profile_is_listed_when_one_is_wrong() -> None:
    from kiosk.rules.profiles import PROFILES

    with pytest.raises(ConfigError) as caught:
        load_config_text('[rules]\nprofile = "x"')
    assert all(name in str(caught.value) for name in PROFILES)


def test_a_file_round_trips_and_names_itself_in_errors(tmp_path: Path) -> None:
    config = load_config_text('[dice]\nsource = "wells"\n[tutor]\nenabled = false\nbad = 0.07')
    path = save_config(config, tmp_path / "sub" / "config.toml")
    assert load_config(path) == config
    assert load_config_text(dumps(config)) == config
    path.write_text("[referee]\nmode = 'strict'\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}: [referee] mode: 'strict' is not allowed")


def test_a_named_file_must_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "missing.toml")
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "also-missing.toml"))
    with pytest.raises(ConfigError, match="also-missing.toml: no such configuration file"):
        load_config()


def test_the_installation_example_is_valid() -> None:
    example = Path(__file__).parents[2] / "deploy" / "config.example.toml"
    config = load_config(example)
    assert config.display.fullscreen is True and config.dice.source == "auto"


def test_the_tutor_section_sets_up_the_coach() -> None:
    from kiosk.app.coaching import coach_config

    config = load_config_text(
        '[tutor]\nevaluator = "gnubg"\nplies = 0\ntimeout = 5\n'
        'doubtful = 0.02\nbad = 0.05\nvery_bad = 0.1\nplayer_slot = "class-3b"'
    )
    settings = coach_config(config.tutor)
    assert (settings.evaluator, settings.plies, settings.timeout) == ("gnubg", 0, 5.0)
    assert settings.thresholds == (0.02, 0.05, 0.1)
    assert config.tutor.player_slot == "class-3b"
    assert coach_config(Config().tutor).thresholds == (0.03, 0.06, 0.12)
