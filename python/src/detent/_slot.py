"""Serves one isolated plug-in slot for a chain made with ``isolate=True``.

The chain starts this module as ``python -m detent._slot slot REQUEST`` with the slot's
shared memory on descriptor 3; it serves until the chain lets it go, and exits with the
server's status. Not for people.
"""
import os
import sys

from ._native import lib


def main(argv):
    if len(argv) != 3 or argv[1] != "slot":
        print("error: detent._slot: expected `slot REQUEST`", flush=True)
        return 2
    return lib.detent_serve_slot(argv[2].encode())


if __name__ == "__main__":
    sys.stdout.flush()
    os._exit(main(sys.argv))
