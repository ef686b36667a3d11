"""The installed plug-ins and Detent's version."""
import ctypes
import json

from ._native import lib, take_string
from .errors import raise_for


def version() -> str:
    """Detent's version, as `detent --version` prints it."""
    return take_string(lib.detent_version())


def plugins() -> "list[dict]":
    """Every installed plug-in, as the rows `detent plugins --json` prints (a list of dicts)."""
    error = ctypes.c_void_p()
    rows = ctypes.c_void_p()
    status = lib.detent_plugins(ctypes.byref(error), ctypes.byref(rows))
    if status:
        raise_for(status, take_string(error.value))
    text = take_string(rows.value)
    return [json.loads(line) for line in text.split("\n") if line]
