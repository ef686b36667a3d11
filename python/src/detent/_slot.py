"""Serves a sandbox of isolated plug-in slots for a chain made with ``isolate=...``, and reads
plug-in binaries for a listing.

The chain starts this module as ``python -m detent._slot slot SANDBOX`` with the sandbox's
shared words on descriptor 3 and its control socket on 4; it serves the slots the chain adds
until the chain lets it go, and exits with the server's status. The catalogue starts it as
``python -m detent._slot scan FORMAT PATH...`` to read VST2, VST3 or CLAP binaries in a
process of their own, and as ``python -m detent._slot words REFERENCE IDENTIFIER`` to answer
for the words of a plug-in an isolated chain runs. Not for people.
"""
import ctypes
import os
import sys

from ._native import lib


def main(argv):
    if len(argv) >= 3 and argv[1] == "scan":
        paths = [os.fsencode(p) for p in argv[3:]]
        return lib.detent_serve_scan(argv[2].encode(), (ctypes.c_char_p * max(1, len(paths)))(*paths), len(paths))
    if len(argv) == 4 and argv[1] == "words":
        return lib.detent_serve_words(os.fsencode(argv[2]), argv[3].encode())
    if len(argv) != 3 or argv[1] != "slot":
        print("detent: detent._slot: expected `slot SANDBOX`", file=sys.stderr, flush=True)
        return 2
    return lib.detent_serve_slot(argv[2].encode())


if __name__ == "__main__":
    sys.stdout.flush()
    os._exit(main(sys.argv))
