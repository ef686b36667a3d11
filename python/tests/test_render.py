"""detent.render: files rendered in process, as `detent render --json` renders them."""
import json

import pytest

import detent
import wavfloat
from conftest import OVERDRIVE, noise, run_detent


def inputs(folder, count=3):
    paths = []
    for i in range(count):
        path = folder / f"take{i}.wav"
        wavfloat.write(str(path), noise(frames=20_000 + i, seed=30 + i), 48_000)
        paths.append(str(path))
    return paths


def test_render_writes_what_the_command_line_writes(tmp_path):
    paths = inputs(tmp_path)
    results = detent.render(paths, out_dir=tmp_path / "py", plugins=["builtin", OVERDRIVE],
                            values={"builtin.cutoff": "2k", "overdrive.drive": 0.5}, jobs=2)
    printed = run_detent("render", *paths, "--out-dir", str(tmp_path / "cli"), "--plugin", "builtin",
                         "--plugin", OVERDRIVE, "--set", "builtin.cutoff=2k", "--set", "overdrive.drive=0.5",
                         "--json", "--jobs", "2").stdout
    expected = [json.loads(line) for line in printed.splitlines()]
    assert [r["input"] for r in results] == paths
    for mine, theirs in zip(results, expected):
        assert set(mine) == set(theirs)
        assert mine["frames"] == theirs["frames"]
        with open(mine["output"], "rb") as a, open(theirs["output"], "rb") as b:
            assert a.read() == b.read()


def test_a_failed_file_is_a_result_and_the_others_render(tmp_path):
    paths = inputs(tmp_path, 2)
    missing = str(tmp_path / "missing.wav")
    results = detent.render([paths[0], missing, paths[1]], out_dir=tmp_path / "out")
    assert [("error" in r) for r in results] == [False, True, False]
    assert "missing.wav" in results[1]["error"] and results[1]["exitCode"] != 0


def test_an_existing_output_is_kept_without_force(tmp_path):
    paths = inputs(tmp_path, 1)
    first = detent.render(paths, out_dir=tmp_path / "out")
    again = detent.render(paths, out_dir=tmp_path / "out")
    assert "error" not in first[0] and "exists" in again[0]["error"]
    assert "error" not in detent.render(paths, out_dir=tmp_path / "out", force=True)[0]


def test_a_problem_of_every_file_raises(tmp_path):
    paths = inputs(tmp_path, 1)
    with pytest.raises(detent.PluginNotFound, match="no-such-plugin"):
        detent.render(paths, out_dir=tmp_path, plugins=["no-such-plugin"])
    with pytest.raises(detent.InvalidValue, match="cutoff"):
        detent.render(paths, out_dir=tmp_path, values={"cutoff": "loud"})
    with pytest.raises(detent.InvalidValue, match="unknown option"):
        detent.render(paths, out_dir=tmp_path, colour="red")
