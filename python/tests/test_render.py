"""detent.render: files rendered in process, as `detent render --json` renders them."""
import io
import json
import sys
import threading
import types

import pytest

import detent
import wavfloat
from conftest import OVERDRIVE, PIANO, noise, run_detent


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
    assert len(results) == len(expected) == len(paths)
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


def test_an_instrument_renders_from_midi_alone(tmp_path):
    song = tmp_path / "song.mid"
    # A format-0 file at 480 ticks per quarter and 120 bpm: a note from 0.5 s to 1 s.
    track = bytes([0, 0xFF, 0x51, 3, 0x07, 0xA1, 0x20, 0x83, 0x60, 0x90, 60, 100, 0x83, 0x60, 0x80, 60, 0, 0, 0xFF, 0x2F, 0])
    song.write_bytes(b"MThd" + (6).to_bytes(4, "big") + bytes([0, 0, 0, 1, 1, 0xE0]) + b"MTrk"
                     + len(track).to_bytes(4, "big") + track)
    results = detent.render(None, output=tmp_path / "py.wav", midi=song, plugins=[PIANO], tail=0.5, subtype="float")
    assert results[0]["frames"] == 72_000 and results[0]["midiEvents"] == 2
    run_detent("render", "--midi", str(song), "--plugin", PIANO, "--tail", "0.5", "--subtype", "float",
               "-o", str(tmp_path / "cli.wav"))
    assert (tmp_path / "py.wav").read_bytes() == (tmp_path / "cli.wav").read_bytes()


def test_midi_beyond_what_a_call_takes_is_counted_alike_in_a_render_and_a_chain(tmp_path):
    # 600 controller messages at the first frame: more than one engine call takes at a frame.
    many = 600
    events = b"".join(bytes([0, 0xB0, 7, i % 128]) for i in range(many))
    track = events + bytes([0, 0xFF, 0x2F, 0])
    song = tmp_path / "crowd.mid"
    song.write_bytes(b"MThd" + (6).to_bytes(4, "big") + bytes([0, 0, 0, 1, 1, 0xE0]) + b"MTrk"
                     + len(track).to_bytes(4, "big") + track)
    results = detent.render(None, output=tmp_path / "crowd.wav", midi=song, plugins=[PIANO], tail=0.1, subtype="float")
    dropped = results[0]["midiDropped"]
    assert dropped > 0 and results[0]["midiEvents"] == many - dropped
    chain = detent.Chain([PIANO], sample_rate=48_000, channels=2)
    with pytest.warns(detent.RepairWarning, match=f"{dropped} MIDI messages could not be played"):
        chain.process(frames=4_800, midi=[(0, bytes([0xB0, 7, i % 128])) for i in range(many)])
    assert chain.midi_dropped == dropped and chain.last_report["midiDropped"] == dropped


def test_render_takes_every_option_the_command_line_table_offers(tmp_path):
    options = detent.render_options()
    # The one table's keys: the encoder's and the metadata's too, which no list here names.
    assert {"dither": "text", "quality": "number", "no_metadata": "flag", "block": "whole"}.items() <= options.items()
    path = inputs(tmp_path, count=1)[0]
    results = detent.render(path, output=tmp_path / "py.wav", subtype="pcm16", dither="tpdf", no_metadata=True)
    run_detent("render", path, "-o", str(tmp_path / "cli.wav"), "--subtype", "pcm16", "--dither", "tpdf", "--no-metadata")
    assert results[0]["dither"] == "tpdf"
    assert (tmp_path / "py.wav").read_bytes() == (tmp_path / "cli.wav").read_bytes()
    with pytest.raises(detent.InvalidValue, match="no_metadata"):
        detent.render(path, output=tmp_path / "x.wav", no_metadata="yes")
    with pytest.raises(detent.InvalidValue, match="use values="):
        detent.render(path, output=tmp_path / "x.wav", sets=["cutoff=1k"])


def test_render_many_renders_each_job_with_its_own_settings_and_a_bad_one_fails_alone(tmp_path):
    paths = inputs(tmp_path, count=3)
    jobs = [
        {"input": paths[0], "output": tmp_path / "a.wav", "values": {"cutoff": 800}},
        {"input": str(tmp_path / "missing.wav"), "output": tmp_path / "m.wav"},
        {"input": paths[1], "output": tmp_path / "b.wav", "values": {"cutoff": "loud"}},
        {"input": paths[2], "output": tmp_path / "c.wav", "automation": {"gain": ([0.0, 0.2], [-20.0, 0.0])}},
    ]
    results = detent.render_many(iter(jobs), workers=2, subtype="float")
    assert [("error" in r) for r in results] == [False, True, True, False]
    assert "cutoff" in results[2]["error"]
    # Each as the command line renders it alone.
    run_detent("render", paths[0], "-o", str(tmp_path / "a-cli.wav"), "--set", "cutoff=800", "--subtype", "float")
    assert (tmp_path / "a.wav").read_bytes() == (tmp_path / "a-cli.wav").read_bytes()
    curve = tmp_path / "curve.txt"
    from detent.chain import _automation
    curve.write_text(_automation({"gain": ([0.0, 0.2], [-20.0, 0.0])}, None) + "\n")
    run_detent("render", paths[2], "-o", str(tmp_path / "c-cli.wav"), "--automation", str(curve), "--subtype", "float")
    assert (tmp_path / "c.wav").read_bytes() == (tmp_path / "c-cli.wav").read_bytes()
    assert detent.render_many([]) == []
    with pytest.raises(detent.InvalidValue, match="'input'"):
        detent.render_many([{"output": "x.wav"}])


def progress_jobs(folder, count=4):
    """``count`` jobs and a bad one (a missing input) in the middle."""
    paths = inputs(folder, count)
    jobs = [{"input": path, "output": folder / f"out{i}.wav"} for i, path in enumerate(paths)]
    jobs.insert(2, {"input": str(folder / "missing.wav"), "output": folder / "m.wav"})
    return jobs


def test_a_progress_function_sees_each_job_once_as_it_is_done_bad_ones_included(tmp_path):
    jobs = progress_jobs(tmp_path)
    seen, threads = [], []

    def tell(result):
        seen.append(result)
        threads.append(threading.current_thread())

    results = detent.render_many(jobs, workers=2, progress=tell)
    assert len(seen) == len(results) == len(jobs) == 5
    # Told from the render's threads while this one waits in the library, the GIL let go.
    assert threading.main_thread() not in threads
    assert seen == results  # the same dicts, in the jobs' order
    assert [("error" in r) for r in seen] == [False, False, True, False, False]
    assert "missing.wav" in seen[2]["error"]
    # What a render without progress returns, file for file.
    again = detent.render_many([{**job, "output": tmp_path / f"again{i}.wav"} for i, job in enumerate(jobs)], workers=2)
    assert [set(r) for r in again] == [set(r) for r in results]
    assert [r.get("frames") for r in again] == [r.get("frames") for r in results]
    one = []
    assert detent.render(jobs[0]["input"], output=tmp_path / "single.wav", progress=one.append) == one
    assert len(one) == 1 and one[0]["frames"] == 20_000


def test_a_progress_function_that_raises_raises_after_every_file_rendered(tmp_path):
    jobs = progress_jobs(tmp_path, 3)
    calls = []

    def fail(result):
        calls.append(result)
        raise KeyError("stop telling")

    with pytest.raises(KeyError, match="stop telling"):
        detent.render_many(jobs, progress=fail)
    assert len(calls) == 1  # told once, then left alone
    assert all((tmp_path / f"out{i}.wav").exists() for i in range(3))
    with pytest.raises(detent.InvalidValue, match="progress 'yes'"):
        detent.render_many(jobs, progress="yes")


def test_progress_true_without_tqdm_counts_on_a_terminal_and_says_nothing_elsewhere(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    jobs = progress_jobs(tmp_path, 2)
    results = detent.render_many(jobs, progress=True)
    assert [("error" in r) for r in results] == [False, False, True]
    assert capsys.readouterr().err == ""  # stderr is not a terminal here

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    detent.render_many(jobs, progress=True, force=True)
    assert terminal.getvalue() == ("\rdetent render: 1/3 files\rdetent render: 2/3 files"
                                   "\rdetent render: 3/3 files, 1 failed\n")


def test_progress_true_with_tqdm_updates_one_bar(tmp_path, monkeypatch):
    bars = []

    class Bar:
        def __init__(self, total=None, **options):
            self.total, self.updates, self.closed = total, 0, False
            bars.append(self)

        def update(self, n=1):
            self.updates += n

        def close(self):
            self.closed = True

    fake = types.ModuleType("tqdm")
    fake.tqdm = Bar
    monkeypatch.setitem(sys.modules, "tqdm", fake)
    jobs = progress_jobs(tmp_path, 3)
    results = detent.render_many(jobs, workers=2, progress=True)
    assert len(bars) == 1
    assert (bars[0].total, bars[0].updates, bars[0].closed) == (len(jobs), len(results), True) == (4, 4, True)
