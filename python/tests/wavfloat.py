"""32-bit float WAV files, written and read exactly (sox's own conversions go through 32-bit
integers and would change the samples)."""
import struct

import numpy as np


def write(path, samples, sample_rate):
    """Writes `samples` (channels, frames) as 32-bit float WAV."""
    channels, frames = samples.shape
    data = np.ascontiguousarray(samples.T, dtype="<f4").tobytes()
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 3, channels,
                         int(sample_rate), int(sample_rate) * 4 * channels, 4 * channels, 32, b"data", len(data))
    with open(path, "wb") as f:
        f.write(header + data)


def read(path):
    """The samples (channels, frames) and rate of a 32-bit float WAV file."""
    with open(path, "rb") as f:
        blob = f.read()
    assert blob[:4] == b"RIFF" and blob[8:12] == b"WAVE", f"{path}: not a WAV file"
    position, channels, rate, data = 12, None, None, None
    while position + 8 <= len(blob):
        name, size = struct.unpack_from("<4sI", blob, position)
        body = blob[position + 8:position + 8 + size]
        if name == b"fmt ":
            kind, channels, rate = struct.unpack_from("<HHI", body)
            bits = struct.unpack_from("<H", body, 14)[0]
            if kind == 0xFFFE:
                kind = struct.unpack_from("<H", body, 24)[0]
            assert kind == 3 and bits == 32, f"{path}: not 32-bit float (format {kind}, {bits} bits)"
        elif name == b"data":
            data = body
        position += 8 + size + (size & 1)
    samples = np.frombuffer(data, dtype="<f4").reshape(-1, channels).T.astype(np.float32)
    return samples, rate
