"""detent.io.AudioFile: files read and written in chunks through the reader and writer
`detent render` uses, with their metadata, shaped like pedalboard.io.AudioFile."""
import os
import shutil
import subprocess

import numpy as np
import pytest

import detent
from detent.io import AudioFile, ReadableAudioFile, WriteableAudioFile

RATE = 48_000
TAGS = {"title": "Take 1 — ünïcode", "artist": "The Detents"}


def signal(channels=2, frames=30_000, seed=3, level=0.9):
    """Noise within ±level (nothing clips), float32 (channels, frames)."""
    return np.random.default_rng(seed).uniform(-level, level, (channels, frames)).astype(np.float32)


def tone(channels=2, frames=48_000):
    """A quiet chord a lossy codec keeps well."""
    t = np.arange(frames) / RATE
    rows = [0.3 * np.sin(2 * np.pi * f * t) for f in (440, 660, 550, 330)[:channels]]
    return np.array(rows, dtype=np.float32)


def write(path, x, channels=None, **options):
    """Writes ``x`` in one call; ``channels`` defaults to its rows."""
    channels = x.shape[0] if channels is None else channels
    with AudioFile(str(path), "w", samplerate=options.pop("samplerate", RATE), num_channels=channels, **options) as f:
        f.write(x)
    return path


def read(path):
    with AudioFile(str(path)) as f:
        return f.read()


def quantised(x, bits):
    """``x`` as integer PCM of ``bits`` holds it, read back (rounded to the nearest step, ties to even)."""
    scale = np.float32(2 ** (bits - 1))
    return (np.round(x * scale) / scale).astype(np.float32)


@pytest.mark.parametrize("name, options, expected", [
    ("pcm16.wav", {"bit_depth": 16}, lambda x: quantised(x, 16)),
    ("pcm24.wav", {"subtype": "pcm24"}, lambda x: quantised(x, 24)),
    ("float.wav", {}, lambda x: x),
    ("soundfile-spelling.wav", {"subtype": "PCM_16"}, lambda x: quantised(x, 16)),
    ("default.flac", {}, lambda x: quantised(x, 24)),
    ("pcm16.flac", {"bit_depth": 16}, lambda x: quantised(x, 16)),
    ("float.aiff", {}, lambda x: x),
])
def test_lossless_round_trips_keep_every_sample_and_the_tags(tmp_path, name, options, expected):
    x = signal()
    path = write(tmp_path / name, x, metadata=TAGS, **options)
    with AudioFile(str(path)) as f:
        assert isinstance(f, ReadableAudioFile) and isinstance(f, AudioFile)
        assert (f.samplerate, f.num_channels, f.frames) == (RATE, 2, x.shape[1])
        assert f.duration == pytest.approx(x.shape[1] / RATE)
        assert f.metadata == TAGS
        y = f.read()
    assert y.dtype == np.float32 and y.shape == x.shape and y.flags.c_contiguous
    np.testing.assert_array_equal(y, expected(x))


def test_the_encoding_is_what_was_asked_and_named_as_pedalboard_names_it(tmp_path):
    x = signal(frames=1000)
    for name, options, subtype, dtype in [("a.wav", {"bit_depth": 16}, "pcm16", "int16"),
                                          ("b.wav", {}, "float", "float32"),
                                          ("c.flac", {}, "pcm24", "int32"),
                                          ("d.ogg", {}, "vorbis", "float32")]:
        with AudioFile(str(tmp_path / name), "w", samplerate=RATE, num_channels=2, **options) as f:
            assert f.subtype == subtype
            f.write(x)
        with AudioFile(str(tmp_path / name)) as f:
            assert (f.subtype, f.file_dtype) == (subtype, dtype)


@pytest.mark.parametrize("name", ["take.ogg", "take.opus", "take.mp3"])
def test_lossy_round_trips_keep_the_length_the_sound_and_the_tags(tmp_path, name):
    x = tone()
    path = write(tmp_path / name, x, metadata=TAGS)
    with AudioFile(str(path)) as f:
        assert (f.samplerate, f.num_channels) == (RATE, 2)
        assert f.metadata == TAGS
        y = f.read()
    assert y.shape[0] == 2 and abs(y.shape[1] - x.shape[1]) <= 2048  # MP3 pads with its encoder's delay
    if name != "take.mp3":
        assert y.shape == x.shape
        # The codec's error is far below the signal.
        error = np.sqrt(np.mean((y[:, 4800:-4800] - x[:, 4800:-4800]) ** 2))
        assert error < 0.05 * np.sqrt(np.mean(x ** 2))


def test_ogg_tags_are_read_by_other_programs(tmp_path):
    path = write(tmp_path / "tagged.ogg", tone(frames=4800), metadata=TAGS)
    if shutil.which("ffprobe") is None:
        pytest.skip("ffprobe is not installed")
    shown = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream_tags=title,artist", "-of", "default=nw=1",
                            str(path)], capture_output=True, text=True, check=True).stdout
    tags = dict(line.split("=", 1) for line in shown.splitlines())
    assert {key.split(":", 1)[1].lower(): value for key, value in tags.items()} == TAGS


@pytest.mark.skipif(shutil.which("sox") is None, reason="sox is not installed")
@pytest.mark.parametrize("name, options", [("sox.wav", ["-b", "16"]), ("sox.flac", ["-b", "24"]), ("sox.aiff", ["-b", "24"])])
def test_a_file_sox_made_reads_as_sox_reads_it(tmp_path, name, options):
    path = str(tmp_path / name)
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "3", *options, path, "synth", "0.7", "sine", "440", "sine", "660",
                    "pinknoise", "gain", "-3"], check=True)

    def soxi(flag):
        return int(subprocess.run(["soxi", flag, path], capture_output=True, text=True, check=True).stdout)

    raw = subprocess.run(["sox", path, "-t", "f32", "-"], capture_output=True, check=True).stdout
    samples = np.frombuffer(raw, dtype=np.float32).reshape(-1, 3).T
    with AudioFile(path) as f:
        assert (f.frames, f.samplerate, f.num_channels) == (soxi("-s"), soxi("-r"), soxi("-c")) == (30_870, 44_100, 3)
        y = f.read()
    assert y.shape == samples.shape
    # Both scale integers by 1/2^(bits−1): equal to the last bit of a 24-bit sample.
    np.testing.assert_allclose(y, samples, rtol=0, atol=2 ** -23)


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed")
def test_a_file_ffmpeg_made_keeps_its_tags_and_length(tmp_path):
    path = str(tmp_path / "ffmpeg.flac")
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=32000:duration=0.5",
                    "-metadata", "title=From ffmpeg", "-metadata", "artist=Someone", "-sample_fmt", "s16", path], check=True)
    with AudioFile(path) as f:
        assert (f.frames, f.samplerate, f.num_channels, f.subtype) == (16_000, 32_000, 1, "pcm16")
        assert f.metadata == {"title": "From ffmpeg", "artist": "Someone"}
        y = f.read()
    # ffmpeg's sine is 1/8 full scale.
    assert np.max(np.abs(y)) == pytest.approx(0.125, abs=1e-3)


@pytest.mark.parametrize("name", ["chunks.wav", "chunks.flac", "chunks.ogg"])
def test_a_read_in_chunks_equals_one_whole_read(tmp_path, name):
    path = write(tmp_path / name, signal(frames=20_011) if not name.endswith("ogg") else tone(frames=20_011))
    whole = read(path)
    parts = []
    with AudioFile(str(path)) as f:
        while True:
            part = f.read(3_001)
            assert f.tell() == sum(p.shape[1] for p in parts) + part.shape[1]
            if part.shape[1] == 0:
                break
            parts.append(part)
        assert f.read().shape == (2, 0)
    assert [p.shape[1] for p in parts] == [3_001] * 6 + [2_005]
    np.testing.assert_array_equal(np.concatenate(parts, axis=1), whole)


@pytest.mark.parametrize("name", ["seek.wav", "seek.flac", "seek.ogg", "seek.opus", "seek.mp3"])
def test_seek_reads_what_a_whole_read_has_there(tmp_path, name):
    lossless = name.endswith((".wav", ".flac"))
    path = write(tmp_path / name, signal(frames=200_000) if lossless else tone(frames=200_000))
    whole = read(path)
    frames = whole.shape[1]
    # libsndfile's own seek lands hundreds of frames off in some Vorbis pages, and starts an
    # MP3 decoder without the frames before: positions all over the file, forwards and back.
    with AudioFile(str(path)) as f:
        assert f.seekable() and f.frames == frames
        f.read(500)
        for at in [12_345, 166_011, 52_841, 0, 99_999, frames - 3_000, 7]:
            f.seek(at)
            assert f.tell() == at
            # MP3's decoder, started again from the start, may round a sample by one step of a float.
            np.testing.assert_allclose(f.read(2_000), whole[:, at:at + 2_000], rtol=0, atol=0 if name != "seek.mp3" else 2e-7)
            assert f.tell() == at + 2_000
        f.seek(frames)
        assert f.read().shape == (2, 0)
        with pytest.raises(detent.InvalidValue, match=f"{frames + 1}"):
            f.seek(frames + 1)
        with pytest.raises(detent.InvalidValue):
            f.seek(-1)


def test_an_existing_file_is_refused_without_force(tmp_path):
    path = write(tmp_path / "keep.wav", signal(frames=100))
    before = path.read_bytes()
    with pytest.raises(detent.InvalidValue, match=f"{path}: already exists.*force=True"):
        AudioFile(str(path), "w", samplerate=RATE, num_channels=2)
    assert path.read_bytes() == before
    write(path, signal(frames=200, seed=9), force=True)
    assert read(path).shape == (2, 200)
    assert sorted(os.listdir(tmp_path)) == ["keep.wav"]


def test_the_file_appears_whole_only_when_closed(tmp_path):
    path = tmp_path / "late.flac"
    x = signal(frames=40_000)
    with AudioFile(str(path), "w", samplerate=RATE, num_channels=2) as f:
        for start in range(0, x.shape[1], 7_000):
            f.write(x[:, start:start + 7_000])
            assert not path.exists()  # only its temporary file, hidden beside it
        assert f.frames == 40_000
    np.testing.assert_array_equal(read(path), quantised(x, 24))
    assert os.listdir(tmp_path) == ["late.flac"]


def test_an_exception_inside_with_leaves_no_file_and_no_temporary_file(tmp_path):
    path = tmp_path / "broken.wav"
    with pytest.raises(RuntimeError, match="stop"):
        with AudioFile(str(path), "w", samplerate=RATE, num_channels=2) as f:
            f.write(signal(frames=10_000))
            raise RuntimeError("stop")
    assert os.listdir(tmp_path) == []
    # Nor does it touch a file it was to replace.
    kept = write(tmp_path / "kept.wav", signal(frames=100))
    before = kept.read_bytes()
    with pytest.raises(RuntimeError):
        with AudioFile(str(kept), "w", samplerate=RATE, num_channels=2, force=True) as f:
            f.write(signal(frames=5_000, seed=4))
            raise RuntimeError("stop")
    assert kept.read_bytes() == before and os.listdir(tmp_path) == ["kept.wav"]


def test_a_file_dropped_unclosed_leaves_nothing(tmp_path):
    f = AudioFile(str(tmp_path / "dropped.wav"), "w", samplerate=RATE, num_channels=1)
    f.write(signal(1, 1_000))
    del f
    assert os.listdir(tmp_path) == []


def test_float64_and_frames_by_channels_write_what_float32_channels_by_frames_writes(tmp_path):
    x = signal(frames=9_999)
    a = write(tmp_path / "a.wav", x, bit_depth=24)
    b = write(tmp_path / "b.wav", x.astype(np.float64), bit_depth=24)
    c = write(tmp_path / "c.wav", np.ascontiguousarray(x.T), channels=2, bit_depth=24)
    d = write(tmp_path / "d.wav", x.astype(np.float64).T, channels=2, bit_depth=24)  # a view, not contiguous
    assert a.read_bytes() == b.read_bytes() == c.read_bytes() == d.read_bytes()
    mono = signal(1, 500)
    with AudioFile(str(tmp_path / "o.wav"), "w", samplerate=RATE) as f:
        f.write(mono[0])  # 1-D: one channel
    np.testing.assert_array_equal(read(tmp_path / "o.wav"), mono)


def test_bad_paths_formats_and_values_raise_one_line(tmp_path):
    with pytest.raises(detent.Error, match="missing.wav: cannot open"):
        AudioFile(str(tmp_path / "missing.wav"))
    (tmp_path / "text.wav").write_text("not audio")
    with pytest.raises(detent.Error, match="text.wav: not an audio file"):
        AudioFile(str(tmp_path / "text.wav"))
    with pytest.raises(detent.Error, match="is a folder"):
        AudioFile(str(tmp_path))
    with pytest.raises(detent.InvalidValue, match=r"no container is called \.xyz"):
        AudioFile(str(tmp_path / "x.xyz"), "w", samplerate=RATE)
    with pytest.raises(detent.InvalidValue, match="no extension names a container"):
        AudioFile(str(tmp_path / "x"), "w", samplerate=RATE)
    with pytest.raises(detent.Error, match="no such folder"):
        AudioFile(str(tmp_path / "nowhere" / "x.wav"), "w", samplerate=RATE)
    with pytest.raises(detent.InvalidValue, match="Opus only supports sample rates"):
        AudioFile(str(tmp_path / "x.opus"), "w", samplerate=44_100)
    with pytest.raises(detent.InvalidValue, match="wav cannot hold vorbis"):
        AudioFile(str(tmp_path / "x.wav"), "w", samplerate=RATE, subtype="vorbis")
    with pytest.raises(detent.InvalidValue, match="no tag 'colour'"):
        AudioFile(str(tmp_path / "x.wav"), "w", samplerate=RATE, metadata={"colour": "red"})
    with pytest.raises(detent.InvalidValue, match="samplerate"):
        AudioFile(str(tmp_path / "x.wav"), "w")
    with pytest.raises(detent.InvalidValue, match="mode 'a'"):
        AudioFile(str(tmp_path / "x.wav"), "a")
    with pytest.raises(detent.InvalidValue, match="bit_depth 12"):
        AudioFile(str(tmp_path / "x.wav"), "w", samplerate=RATE, bit_depth=12)
    with AudioFile(str(tmp_path / "x.wav"), "w", samplerate=RATE, num_channels=2) as f:
        with pytest.raises(detent.InvalidValue, match="opened for 2 channels"):
            f.write(signal(3, 100))
        with pytest.raises(detent.InvalidValue, match="float32 or float64"):
            f.write(np.zeros((2, 10), dtype=np.int16))
    assert sorted(os.listdir(tmp_path)) == ["text.wav", "x.wav"]
    f = AudioFile(str(tmp_path / "x.wav"))
    f.close()
    with pytest.raises(detent.Error, match="closed"):
        f.read()


def test_samples_beyond_full_scale_clip_in_integer_files_and_are_counted(tmp_path):
    x = np.array([[0.5, 1.5, -2.0, 0.25]], dtype=np.float32)
    with AudioFile(str(tmp_path / "loud.wav"), "w", samplerate=RATE, bit_depth=16) as f:
        f.write(x)
        assert f.clipped == 2
    np.testing.assert_array_equal(read(tmp_path / "loud.wav"), [[0.5, 32767 / 32768, -1.0, 0.25]])
    write(tmp_path / "loud-float.wav", x)
    np.testing.assert_array_equal(read(tmp_path / "loud-float.wav"), x)  # float holds them


def test_a_container_without_a_place_for_tags_says_so(tmp_path):
    with pytest.warns(UserWarning, match="no place for"):
        with AudioFile(str(tmp_path / "x.au"), "w", samplerate=RATE, metadata=TAGS) as f:
            f.write(signal(1, 100))
        assert f.metadata == {}
    assert read(tmp_path / "x.au").shape == (1, 100)
