"""The C interface of libDetentC.so, through ctypes (which lets go of the GIL in every call)."""
import ctypes
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_path = os.environ.get("DETENT_LIBRARY") or os.path.join(_here, "libDetentC.so")
lib = ctypes.CDLL(_path)

_c = ctypes
_error = _c.POINTER(_c.c_void_p)
_chain = _c.c_void_p

lib.detent_free.argtypes = [_c.c_void_p]
lib.detent_free.restype = None
lib.detent_version.argtypes = []
lib.detent_version.restype = _c.c_void_p
lib.detent_plugins.argtypes = [_error, _c.POINTER(_c.c_void_p)]
lib.detent_plugins.restype = _c.c_int32

lib.detent_chain_new.argtypes = [_c.POINTER(_c.c_char_p), _c.c_int32, _c.c_double, _c.c_int32,
                                 _c.POINTER(_c.c_void_p), _error]
lib.detent_chain_new.restype = _c.c_int32
lib.detent_chain_free.argtypes = [_chain]
lib.detent_chain_free.restype = None
lib.detent_chain_set.argtypes = [_chain, _c.c_char_p, _c.c_char_p, _error]
lib.detent_chain_set.restype = _c.c_int32
lib.detent_chain_get.argtypes = [_chain, _c.c_char_p, _c.POINTER(_c.c_double), _error]
lib.detent_chain_get.restype = _c.c_int32
lib.detent_chain_text.argtypes = [_chain, _c.c_char_p, _c.POINTER(_c.c_void_p), _error]
lib.detent_chain_text.restype = _c.c_int32
lib.detent_chain_parameters.argtypes = [_chain]
lib.detent_chain_parameters.restype = _c.c_void_p
lib.detent_chain_slots.argtypes = [_chain]
lib.detent_chain_slots.restype = _c.c_void_p
lib.detent_chain_identifier.argtypes = [_chain]
lib.detent_chain_identifier.restype = _c.c_void_p
lib.detent_chain_latency.argtypes = [_chain, _c.POINTER(_c.c_int64), _error]
lib.detent_chain_latency.restype = _c.c_int32
lib.detent_render_options.argtypes = []
lib.detent_render_options.restype = _c.c_void_p
lib.detent_chain_add.argtypes = [_chain, _c.c_char_p, _c.c_int64, _error]
lib.detent_chain_add.restype = _c.c_int32
lib.detent_chain_remove.argtypes = [_chain, _c.c_char_p, _error]
lib.detent_chain_remove.restype = _c.c_int32
lib.detent_chain_move.argtypes = [_chain, _c.c_char_p, _c.c_int64, _error]
lib.detent_chain_move.restype = _c.c_int32
lib.detent_chain_automate.argtypes = [_chain, _c.c_char_p, _error]
lib.detent_chain_automate.restype = _c.c_int32
lib.detent_chain_snapshot.argtypes = [_chain, _c.POINTER(_c.c_void_p), _error]
lib.detent_chain_snapshot.restype = _c.c_int32
lib.detent_chain_restore.argtypes = [_chain, _c.c_char_p, _error]
lib.detent_chain_restore.restype = _c.c_int32
lib.detent_chain_report.argtypes = [_chain, _c.POINTER(_c.c_void_p), _error]
lib.detent_chain_report.restype = _c.c_int32
lib.detent_chain_dropped_midi.argtypes = [_chain, _c.POINTER(_c.c_int64), _error]
lib.detent_chain_dropped_midi.restype = _c.c_int32
lib.detent_chain_output_frames.argtypes = [_chain, _c.c_int64, _c.c_int32, _c.POINTER(_c.c_int64), _error]
lib.detent_chain_output_frames.restype = _c.c_int32
lib.detent_chain_reset.argtypes = [_chain, _error]
lib.detent_chain_reset.restype = _c.c_int32
lib.detent_chain_load_preset.argtypes = [_chain, _c.c_char_p, _error]
lib.detent_chain_load_preset.restype = _c.c_int32
lib.detent_chain_save_preset.argtypes = [_chain, _c.c_char_p, _c.c_int32, _c.POINTER(_c.c_void_p), _error]
lib.detent_chain_save_preset.restype = _c.c_int32
lib.detent_chain_process.argtypes = [
    _chain, _c.c_void_p, _c.c_int64, _c.c_int64, _c.c_void_p, _c.c_int64, _c.c_int32,
    _c.c_void_p, _c.c_void_p, _c.c_void_p, _c.c_void_p, _c.c_int32,
    _c.c_int32, _c.c_void_p, _c.c_void_p, _c.c_void_p,
    _c.POINTER(_c.c_int64), _c.POINTER(_c.c_int32), _error]
lib.detent_chain_process.restype = _c.c_int32
lib.detent_chain_isolate.argtypes = [_chain, _c.c_char_p, _c.POINTER(_c.c_char_p), _c.c_int32, _c.c_char_p, _error]
lib.detent_chain_isolate.restype = _c.c_int32
lib.detent_chain_timeout.argtypes = [_chain, _c.c_double, _error]
lib.detent_chain_timeout.restype = _c.c_int32
lib.detent_chain_interrupt.argtypes = [_chain]
lib.detent_chain_interrupt.restype = None
lib.detent_serve_slot.argtypes = [_c.c_char_p]
lib.detent_serve_slot.restype = _c.c_int32
lib.detent_serve_scan.argtypes = [_c.c_char_p, _c.POINTER(_c.c_char_p), _c.c_int32]
lib.detent_serve_scan.restype = _c.c_int32
lib.detent_serve_words.argtypes = [_c.c_char_p, _c.c_char_p]
lib.detent_serve_words.restype = _c.c_int32
lib.detent_use_scanner.argtypes = [_c.c_char_p, _c.POINTER(_c.c_char_p), _c.c_int32]
lib.detent_use_scanner.restype = None
# VST2, VST3 and CLAP binaries are read in a child process, this interpreter running
# ``detent._slot scan``, so one that crashes or hangs while loading costs that child alone.
_scanner_words = (_c.c_char_p * 2)(b"-m", b"detent._slot")
lib.detent_use_scanner(os.fsencode(sys.executable), _scanner_words, 2)


def take_string(pointer):
    """The text of a string the library handed out, which is then freed."""
    if not pointer:
        return ""
    try:
        return ctypes.string_at(pointer).decode("utf-8", "replace")
    finally:
        lib.detent_free(pointer)

lib.detent_render.argtypes = [_c.c_char_p, _c.POINTER(_c.c_void_p), _error]
lib.detent_render.restype = _c.c_int32

# Each file's result of a render, handed over as it is done: (line, context), on a thread of
# the render's (ctypes takes the GIL for the call).
RENDER_LINE = _c.CFUNCTYPE(None, _c.c_char_p, _c.c_void_p)
lib.detent_render_streaming.argtypes = [_c.c_char_p, RENDER_LINE, _c.c_void_p, _error]
lib.detent_render_streaming.restype = _c.c_int32

_file = _c.c_void_p
lib.detent_file_open_read.argtypes = [_c.c_char_p, _c.POINTER(_c.c_void_p), _error]
lib.detent_file_open_read.restype = _c.c_int32
lib.detent_file_open_write.argtypes = [_c.c_char_p, _c.c_char_p, _c.POINTER(_c.c_void_p), _error]
lib.detent_file_open_write.restype = _c.c_int32
lib.detent_file_info.argtypes = [_file, _c.POINTER(_c.c_void_p), _error]
lib.detent_file_info.restype = _c.c_int32
lib.detent_file_read.argtypes = [_file, _c.c_void_p, _c.c_int64, _c.c_int64, _c.POINTER(_c.c_int64), _error]
lib.detent_file_read.restype = _c.c_int32
lib.detent_file_seek.argtypes = [_file, _c.c_int64, _error]
lib.detent_file_seek.restype = _c.c_int32
lib.detent_file_write.argtypes = [_file, _c.c_void_p, _c.c_int64, _c.c_int64, _error]
lib.detent_file_write.restype = _c.c_int32
lib.detent_file_close.argtypes = [_file, _error]
lib.detent_file_close.restype = _c.c_int32
lib.detent_file_free.argtypes = [_file]
lib.detent_file_free.restype = None
