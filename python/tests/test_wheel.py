"""The wheel (Scripts/wheel) installs and runs where Swift is not: in a fresh virtual
environment, with the Swift toolchain's folder hidden behind an empty one (a mount namespace
of its own), the built-in, an LV2 and a LADSPA chain, in process and isolated, give what the
package built from source gives here, and no library of the toolchain is loaded."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import OVERDRIVE, ROOT

# The toolchain's root: /opt/swift for /opt/swift/usr/bin/swift.
TOOLCHAIN = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("swift") or "/nonexistent/usr/bin/swift"))))

SCRIPT = """
import hashlib, json, sys
import numpy as np
import detent
x = (np.random.default_rng(3).standard_normal((2, 48_000)) * 0.2).astype(np.float32)
sums = {}
for name, plugins, isolate in [("builtin", ["builtin"], False), ("lv2", [sys.argv[1]], False),
                               ("ladspa", ["ladspa:1903"], False), ("isolated", [sys.argv[1], "ladspa:1903"], True)]:
    chain = detent.Chain(plugins, isolate=isolate)
    sums[name] = hashlib.sha256(chain.process(x).tobytes()).hexdigest()
    chain.close()
maps = open("/proc/self/maps").read().splitlines()
import os
print(json.dumps({"sums": sums, "toolchain": sorted({l.split()[-1] for l in maps if sys.argv[2] in l}),
                  "visible": os.path.isdir(sys.argv[2] + "usr/lib/swift")}))
"""


def run(python, *prefix):
    done = subprocess.run([*prefix, python, "-c", SCRIPT, OVERDRIVE, TOOLCHAIN + "/"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.skipif(os.geteuid() != 0 and not shutil.which("unshare"), reason="hiding the toolchain needs a mount namespace")
def test_the_wheel_runs_without_swift(tmp_path):
    assert os.path.isdir(TOOLCHAIN + "/usr/lib/swift"), f"{TOOLCHAIN}: not a Swift toolchain"
    made = subprocess.run([os.path.join(ROOT, "Scripts", "wheel"), str(tmp_path / "dist")], capture_output=True, text=True,
                          timeout=1200)
    assert made.returncode == 0, made.stderr
    wheel = made.stdout.split()[-1]
    assert "-py3-none-manylinux_" in os.path.basename(wheel)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "numpy", wheel], check=True,
                   timeout=600)
    expected = run(sys.executable)
    # The package built from source here loads the toolchain's runtime: what the check below
    # would see, were the wheel to do the same.
    assert expected["visible"] and expected["toolchain"]
    # An empty folder mounted over the toolchain, in a mount namespace of this command alone
    # (as root; otherwise in a user namespace of its own).
    hide = ["unshare", "--mount", "--propagation", "private"] if os.geteuid() == 0 else ["unshare", "-r", "--mount"]
    hidden = run(python, *hide, "sh", "-c", f'mount -t tmpfs none "{TOOLCHAIN}" && exec "$0" "$@"')
    assert not hidden["visible"] and hidden["toolchain"] == []
    assert hidden["sums"] == expected["sums"]
