"""What the Python tests share: the `detent` program they compare against (the release build
`Scripts/setup` makes, or DETENT_BINARY), renders through it, and test signals."""
import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wavfloat  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DETENT = os.environ.get("DETENT_BINARY") or os.path.join(ROOT, ".build", "release", "detent")

OVERDRIVE = "http://drobilla.net/plugins/mda/Overdrive"
LATENCY = "http://plugin.org.uk/swh-plugins/artificialLatency"
PIANO = "http://drobilla.net/plugins/mda/Piano"
# A lookahead limiter: its output is its input 240 frames (5 ms at 48 kHz) later, and says so.
LIMITER = "http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"


@pytest.fixture(autouse=True)
def own_presets(tmp_path, monkeypatch):
    """Each test's user presets in a folder of its own."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def noise(channels=2, frames=48_000, seed=1, level=0.2):
    return (np.random.default_rng(seed).standard_normal((channels, frames)) * level).astype(np.float32)


def run_detent(*arguments, check=True):
    """Runs `detent` with `arguments`; its completed process."""
    assert os.access(DETENT, os.X_OK), f"{DETENT} is not built (Scripts/setup, or set DETENT_BINARY)"
    done = subprocess.run([DETENT, *arguments], capture_output=True, text=True, timeout=120)
    if check and done.returncode != 0:
        raise AssertionError(f"detent {' '.join(arguments)}: status {done.returncode}: {done.stderr.strip()}")
    return done


def render(folder, x, plugins=(), sets=(), extra=(), sample_rate=48_000):
    """What `detent render` writes for the samples `x` with these options, as (channels, frames)."""
    source = os.path.join(folder, "in.wav")
    target = os.path.join(folder, "out.wav")
    wavfloat.write(source, x, sample_rate)
    arguments = ["render", source, "-o", target, "--force"]
    for plugin in plugins:
        arguments += ["--plugin", plugin]
    for assignment in sets:
        arguments += ["--set", assignment]
    run_detent(*arguments, *extra)
    samples, rate = wavfloat.read(target)
    assert rate == sample_rate
    return samples
