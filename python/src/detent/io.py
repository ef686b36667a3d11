"""Audio files read and written in chunks, through the reader and writer ``detent render``
uses: every container and encoding a render reads or writes, with their metadata, shaped like
``pedalboard.io.AudioFile``.

    with detent.io.AudioFile("take.flac") as f:
        x = f.read(f.frames)                     # float32, (channels, frames)
    with detent.io.AudioFile("out.ogg", "w", samplerate=48000, num_channels=2,
                             metadata={"title": "Take 1"}) as f:
        f.write(y)                               # appears, whole, when the block ends
"""
import ctypes
import json
import numbers
import os
import warnings
from typing import Any, Optional

import numpy as np

from ._native import lib, take_string
from .chain import _INT64, _c_string, _call, _planar, _whole
from .errors import Error, InvalidValue

__all__ = ["AudioFile", "ReadableAudioFile", "WriteableAudioFile"]

# The numpy type each encoding's samples fit, as pedalboard names a file's (the samples read
# are float32 whatever the file holds).
_DTYPES = {"pcm8": "int8", "pcm16": "int16", "pcm24": "int32", "pcm32": "int32", "float": "float32",
           "double": "float64", "ulaw": "int16", "alaw": "int16"}

# Frames read at a time from a stream whose length is not known.
_STREAM_CHUNK = 65536


def _path(path):
    """A path as the library takes it."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise InvalidValue(f"path {path!r}: expected a path (file objects are not read or written here)")
    return _c_string("path", path)


def _info(handle):
    """What the library says of an open file (``detent_file_info``)."""
    info = ctypes.c_void_p()
    _call(lib.detent_file_info, handle, ctypes.byref(info))
    return json.loads(take_string(info.value))


class AudioFile:
    """An audio file, read (``mode="r"``, the default: a ``ReadableAudioFile``) or written
    (``mode="w"``: a ``WriteableAudioFile``), in any container and encoding ``detent render``
    reads or writes. Use it in a ``with`` block, or call ``close()``.
    """

    def __new__(cls, path: "str | os.PathLike[str]", mode: str = "r", *args: Any, **kwargs: Any) -> "AudioFile":
        if cls is AudioFile:
            if mode == "r":
                return super().__new__(ReadableAudioFile)
            if mode == "w":
                return super().__new__(WriteableAudioFile)
            raise InvalidValue(f"mode {mode!r}: expected 'r' to read or 'w' to write")
        return super().__new__(cls)

    _handle = None

    def _live(self):
        """The handle of a file still open: every call goes through here."""
        handle = self._handle
        if not handle:
            raise Error(f"{self.path}: the file is closed")
        return handle

    @property
    def closed(self) -> bool:
        """True once the file is closed."""
        return not self._handle

    @property
    def duration(self) -> float:
        """The length in seconds (of what was written so far, when writing)."""
        return self.frames / self.samplerate

    @property
    def file_dtype(self) -> str:
        """The numpy type the file's encoding fits, as pedalboard names it (``"int16"``,
        ``"int32"`` for 24-bit PCM, ``"float32"``; ``"float32"`` for the lossy codecs, which
        decode to floats). ``subtype`` names the encoding exactly."""
        return _DTYPES.get(self.subtype, "float32")

    def __enter__(self):
        return self

    def __del__(self):
        try:
            self._free()
        except Exception:  # the interpreter is shutting down and ctypes is gone
            pass

    def _free(self):
        handle, self._handle = self._handle, None
        if handle:
            lib.detent_file_free(handle)


class ReadableAudioFile(AudioFile):
    """An audio file opened for reading: ``read`` gives float32 ``(channels, frames)`` arrays
    (integer PCM scaled by 1/2^(bits−1), as a render reads it), from where ``seek`` put it."""

    def __init__(self, path: "str | os.PathLike[str]", mode: str = "r") -> None:
        if mode != "r":
            raise InvalidValue(f"mode {mode!r}: a ReadableAudioFile is read ('r')")
        name = _path(path)
        self.path = os.fsdecode(name)
        handle = ctypes.c_void_p()
        _call(lib.detent_file_open_read, name, ctypes.byref(handle))
        self._handle = handle
        info = _info(handle)
        self.samplerate: int = info["sampleRate"]
        self.num_channels: int = info["channels"]
        self._frames: Optional[int] = info["frames"]
        self.format: str = info["container"]
        self.subtype: str = info["subtype"]
        self._seekable: bool = info["seekable"]
        self.metadata: "dict[str, str]" = info["metadata"]
        self.other_metadata: "list[str]" = info["otherMetadata"]
        self._position = 0

    @property
    def frames(self) -> int:
        """Frames in the file, as its header declares them (a stream of unknown length: those
        read so far)."""
        return self._position if self._frames is None else self._frames

    def seekable(self) -> bool:
        """Whether ``seek`` can go anywhere: a file, not a stream."""
        return self._seekable

    def tell(self) -> int:
        """The frame the next ``read`` starts at."""
        return self._position

    def seek(self, frame: int) -> None:
        """Goes to ``frame`` (0 … ``frames``), where the next ``read`` starts."""
        handle = self._live()
        frame = _whole("frame", frame, 0, _INT64 if self._frames is None else self._frames)
        _call(lib.detent_file_seek, handle, frame)
        self._position = frame

    def read(self, num_frames: int = -1) -> np.ndarray:
        """Reads ``num_frames`` frames from the position (fewer at the end; all the rest for
        -1), as float32 ``(channels, frames)``."""
        handle = self._live()
        num_frames = _whole("num_frames", num_frames, -1, _INT64)
        if self._frames is None:
            return self._read_stream(handle, num_frames)
        rest = max(0, self._frames - self._position)
        count = rest if num_frames < 0 else min(num_frames, rest)
        out = np.empty((self.num_channels, count), dtype=np.float32)
        got = self._read_into(handle, out)
        return out if got == count else np.ascontiguousarray(out[:, :got])

    def _read_into(self, handle, out):
        """Fills ``out`` from the position; how many frames were read."""
        read = ctypes.c_int64()
        _call(lib.detent_file_read, handle, out.ctypes.data, out.shape[1], out.shape[1], ctypes.byref(read))
        self._position += read.value
        return read.value

    def _read_stream(self, handle, num_frames):
        """Reads a stream of unknown length, chunk by chunk."""
        parts = []
        wanted = num_frames if num_frames >= 0 else None
        while wanted is None or wanted > 0:
            chunk = np.empty((self.num_channels, _STREAM_CHUNK if wanted is None else min(wanted, _STREAM_CHUNK)),
                             dtype=np.float32)
            got = self._read_into(handle, chunk)
            if got:
                parts.append(chunk[:, :got])
            if wanted is not None:
                wanted -= got
            if got < chunk.shape[1]:
                break
        if not parts:
            return np.empty((self.num_channels, 0), dtype=np.float32)
        return np.ascontiguousarray(np.concatenate(parts, axis=1))

    def close(self) -> None:
        """Lets the file go; later reads raise ``detent.Error``. Closing twice does nothing."""
        self._free()

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        state = "closed" if self.closed else f"samplerate={self.samplerate}, num_channels={self.num_channels}, frames={self.frames}, {self.format} {self.subtype}"
        return f"<detent.io.ReadableAudioFile {self.path!r} {state}>"


class WriteableAudioFile(AudioFile):
    """An audio file being written. The samples go to a temporary file beside ``path``, which
    takes its name when the file is closed whole (the end of the ``with`` block); an exception
    in the block, or a file dropped without ``close()``, leaves nothing behind. An existing
    file is refused unless ``force=True``.

    The container is ``format`` or else the path's extension's (``.wav``, ``.flac``,
    ``.ogg``, ``.opus``, ``.mp3``, ``.aiff``, ``.caf``, …, as ``detent render -o`` reads
    it). The encoding is ``subtype`` (``"pcm16"``, ``"pcm24"``, ``"float"``, ``"vorbis"``…;
    soundfile's ``"PCM_16"`` spelling reads too) or ``bit_depth`` (8, 16, 24 or 32: integer
    PCM); by default the samples are kept as float where the container holds float (WAV,
    AIFF, CAF, AU, W64), and otherwise the container's own (FLAC 24-bit, Ogg Vorbis, Opus,
    MP3). ``quality`` (0 … 1), ``bitrate`` (kbit/s) and ``compression`` (FLAC 0 … 8) set
    the encoder as ``render``'s options of those names do; ``dither`` (``"tpdf"`` or
    ``"shaped"``; none by default, so samples read from a file of the same depth are
    written back unchanged) applies at 16 bits or fewer. ``metadata`` holds text tags by
    name (``title``, ``artist``, ``album``, ``date``, ``comment``, ``genre``,
    ``tracknumber``, ``copyright``, ``license``, ``software``).
    """

    def __init__(self, path: "str | os.PathLike[str]", mode: str = "w", samplerate: "float | None" = None,
                 num_channels: int = 1, format: "str | None" = None, subtype: "str | None" = None,
                 bit_depth: "int | None" = None, quality: "float | None" = None, compression: "int | None" = None,
                 bitrate: "int | None" = None, dither: "str | None" = None, metadata: "dict[str, str] | None" = None,
                 force: bool = False) -> None:
        if mode != "w":
            raise InvalidValue(f"mode {mode!r}: a WriteableAudioFile is written ('w')")
        name = _path(path)
        self.path = os.fsdecode(name)
        if samplerate is None:
            raise InvalidValue("samplerate: give the sample rate of the file to write")
        if isinstance(samplerate, bool) or not isinstance(samplerate, numbers.Real) or not float(samplerate).is_integer():
            raise InvalidValue(f"samplerate {samplerate!r}: expected a whole number of Hz")
        num_channels = _whole("num_channels", num_channels, 1, 1024)
        request = {"sampleRate": int(samplerate), "channels": num_channels, "force": bool(force)}
        if format is not None:
            request["format"] = _text("format", format).lower().lstrip(".")
        if subtype is not None and bit_depth is not None:
            raise InvalidValue("give subtype or bit_depth, not both")
        if bit_depth is not None:
            if _whole("bit_depth", bit_depth, 8, 32) not in (8, 16, 24, 32):
                raise InvalidValue(f"bit_depth {bit_depth!r}: expected 8, 16, 24 or 32 (integer PCM; subtype='float' for float)")
            request["subtype"] = f"pcm{bit_depth}"
        elif subtype is not None:
            request["subtype"] = _text("subtype", subtype).lower().replace("_", "").replace("-", "")
        if quality is not None:
            if isinstance(quality, bool) or not isinstance(quality, numbers.Real):
                raise InvalidValue(f"quality {quality!r}: expected a number from 0 to 1")
            request["quality"] = float(quality)
        if compression is not None:
            request["compression"] = _whole("compression", compression, 0, 8)
        if bitrate is not None:
            request["bitrate"] = _whole("bitrate", bitrate, 1, 100_000)
        if dither is not None:
            request["dither"] = _text("dither", dither)
        if metadata:
            if not isinstance(metadata, dict):
                raise InvalidValue("metadata: expected a dict of tag to text")
            request["metadata"] = {_text("metadata tag", k): _text(f"metadata {k!r}", v) for k, v in metadata.items()}
        handle = ctypes.c_void_p()
        _call(lib.detent_file_open_write, name, json.dumps(request).encode(), ctypes.byref(handle))
        self._handle = handle
        info = _info(handle)
        self.samplerate: int = info["sampleRate"]
        self.num_channels: int = info["channels"]
        self.format: str = info["container"]
        self.subtype: str = info["subtype"]
        kept = set(info["metadataKept"])
        self.metadata: "dict[str, str]" = {k: v for k, v in request.get("metadata", {}).items() if k in kept and v}
        self._frames = 0
        self._clipped = 0
        lost = info["metadataLost"]
        if lost:
            warnings.warn(f"detent: {self.path}: {self.format} files have no place for {', '.join(lost)}: not written",
                          UserWarning, stacklevel=3)

    @property
    def frames(self) -> int:
        """Frames written so far."""
        return self._frames

    def tell(self) -> int:
        """Frames written so far."""
        return self._frames

    @property
    def clipped(self) -> int:
        """Samples clipped so far: beyond ±1 in an encoding that cannot hold them (integer
        PCM, µ-law, the lossy codecs), counted as a render counts them."""
        handle = self._handle
        if handle:
            self._clipped = _info(handle)["clipped"]
        return self._clipped

    def write(self, samples: np.ndarray) -> None:
        """Writes ``samples``: float32 or float64, ``(channels, frames)`` or ``(frames,
        channels)`` (told by which side is ``num_channels`` long, as ``Chain.process`` tells);
        mono may be 1-D."""
        handle = self._live()
        x, _ = _planar(samples, self.num_channels, "the file was opened for")
        _call(lib.detent_file_write, handle, x.ctypes.data, x.shape[1], x.shape[1])
        self._frames += x.shape[1]

    def flush(self) -> None:
        """Does nothing: the file appears, whole, when it is closed."""
        self._live()

    def close(self) -> None:
        """Finishes the file and gives it its name (if that fails, nothing appears and the
        failure is raised). Closing twice does nothing."""
        handle = self._handle
        if not handle:
            return
        try:
            self._clipped = _info(handle)["clipped"]
            _call(lib.detent_file_close, handle)
        finally:
            self._free()

    def abandon(self) -> None:
        """Drops the file unfinished: nothing appears under its name."""
        self._free()

    def __exit__(self, kind, value, traceback):
        if kind is None:
            self.close()
        else:
            self.abandon()
        return False

    def __repr__(self):
        state = "closed" if self.closed else f"samplerate={self.samplerate}, num_channels={self.num_channels}, frames={self.frames}, {self.format} {self.subtype}"
        return f"<detent.io.WriteableAudioFile {self.path!r} {state}>"


def _text(what, value):
    """A string option: text without NUL characters."""
    if not isinstance(value, str):
        raise InvalidValue(f"{what} {value!r}: expected a string")
    if "\0" in value:
        raise InvalidValue(f"{what} {value!r}: holds a NUL character")
    return value
