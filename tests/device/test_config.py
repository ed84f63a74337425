import pytest

from device.config import Config, ConfigError, load_config, load_config_text


def test_an_empty_file_means_every_default():
    cfg = load_config_text("")
    assert cfg == Config()
    assert cfg.camera.source == "sim" and cfg.server.port == 8080


def test_values_are_read_and_ints_accepted_for_floats(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[camera]\nsource = "picam"\nfps = 25\n[table]\npin = "4321"\n')
    cfg = load_config(path)
    assert cfg.camera.source == "picam"
    assert cfg.camera.fps == 25.0 and isinstance(cfg.camera.fps, float)
    assert cfg.table.pin == "4321"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[camera]\nsorce = 'picam'", r"camera.sorce: unknown setting \(known here: fps, height"),
        ("[server]\nport = '8080'", "server.port: expected a whole number, got '8080'"),
        ("[server]\nport = 70000", "server.port: 70000 is not a port"),
        ("[server]\nport = true", "server.port: expected a whole number"),
        ("[server]\nport = -1", "server.port: -1 is not a port"),
        ("[camra]\nsource = 'x'", "camra: unknown setting"),
        ("camera = 3", "camera: expected a .section."),
        ("[table]\npin = '12'", "table.pin: 4 to 8 digits"),
        ("[camera\nsource=1", "not valid TOML"),
    ],
)
def test_mistakes_name_the_key_and_the_problem(text, message):
    with pytest.raises(ConfigError, match=message):
        load_config_text(text)


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(bad)


def test_state_paths_default_to_the_state_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("TILEWATCH_STATE_DIR", str(tmp_path))
    cfg = load_config_text("")
    assert cfg.storage.resolved() == tmp_path / "tilewatch.sqlite"
    assert cfg.calibration.resolved() == tmp_path / "profile.toml"
