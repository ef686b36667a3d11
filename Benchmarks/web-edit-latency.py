"""How long a rig edit takes from the browser panel against the same edit typed, side by side
in one run: `detent live --http` on a private JACK server (dummy driver, 48 kHz, 256 frames),
a chain of two built-ins; each round adds MDA Overdrive after the first slot and removes it
again, once through the page's WebSocket (the page's message, `detent-web`, the bridge, the
answer line back) and once typed on standard input (the answer line on standard output). The
two ways alternate, the order rotating from round to round. Prints the median of each and
page / typed: the cost of the web path over the edit itself.

    python3 Benchmarks/web-edit-latency.py [ROUNDS]      (default 20)

Needs jackd (Scripts/setup) and the release build (`swift build -c release`).
"""
import base64
import json
import os
import select
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 20
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DETENT = os.path.join(ROOT, ".build", "release", "detent")
SERVER = "webedit%d" % os.getpid()
PLUGIN = "http://drobilla.net/plugins/mda/Overdrive"


class Page:
    """A WebSocket client speaking the page's messages."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:%d\r\n\r\n"
                             % (port, key, port)).encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.socket.recv(4096)
        self.buffer = self.buffer.split(b"\r\n\r\n", 1)[1]

    def exactly(self, n):
        while len(self.buffer) < n:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise EOFError("the page's socket closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self):
        while True:
            head = self.exactly(2)
            n = head[1] & 0x7F
            if n == 126:
                n = struct.unpack(">H", self.exactly(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self.exactly(8))[0]
            data = self.exactly(n)
            if head[0] & 0x0F == 1:
                return json.loads(data)

    def send(self, message):
        data, mask = json.dumps(message).encode(), os.urandom(4)
        head = bytes([0x81, 0x80 | len(data)]) if len(data) < 126 else bytes([0x81, 0x80 | 126]) + struct.pack(">H", len(data))
        self.socket.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def until(self, kind):
        while True:
            message = self.receive()
            if message["type"] == kind:
                return message
            if message["type"] == "error":
                raise RuntimeError(message["message"])


def main():
    if not os.access(DETENT, os.X_OK):
        sys.exit("web-edit-latency: %s is missing (swift build -c release)" % DETENT)
    work = tempfile.mkdtemp()
    jack = subprocess.Popen(["jackd", "--no-realtime", "-n", SERVER, "-d", "dummy", "-r", "48000", "-p", "256"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, JACK_DEFAULT_SERVER=SERVER, XDG_CONFIG_HOME=os.path.join(work, "config"))
    host = None
    try:
        deadline = time.time() + 20
        while subprocess.run(["jack_lsp", "-s", SERVER], capture_output=True).returncode != 0:
            if time.time() > deadline:
                sys.exit("web-edit-latency: jackd did not start")
            time.sleep(0.05)
        host = subprocess.Popen([DETENT, "live", "--headless", "--no-midi", "--http", "0", "--plugin", "a=builtin",
                                 "--plugin", "b=builtin"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, text=True, bufsize=1)
        port = None
        while port is None:
            line = host.stderr.readline()
            if not line:
                sys.exit("web-edit-latency: detent ended before its web panel started")
            if "web panel at http://" in line:
                port = int(line.split("http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
        page = Page(port)
        page.until("layout")

        def typed(command):
            start = time.perf_counter()
            host.stdin.write(command + "\n")
            ready, _, _ = select.select([host.stdout], [], [], 30)
            answer = host.stdout.readline() if ready else ""
            if not answer.startswith("chain "):
                raise RuntimeError("typed %r: %r" % (command, answer))
            return time.perf_counter() - start

        def paged(message):
            start = time.perf_counter()
            page.send(message)
            page.until("answer")
            return time.perf_counter() - start

        ways = {
            "page": lambda: paged({"type": "chain", "action": "add", "plugin": PLUGIN, "name": "d", "position": 2})
            + paged({"type": "chain", "action": "remove", "slot": "d"}),
            "typed": lambda: typed("chain add d=%s at 2" % PLUGIN) + typed("chain remove d"),
        }
        times = {name: [] for name in ways}
        ways["typed"]()  # the plug-in's library loaded once before anything is timed
        for round in range(ROUNDS):
            order = list(ways) if round % 2 == 0 else list(reversed(list(ways)))
            for name in order:
                times[name].append(ways[name]() / 2)
        page_ms, typed_ms = (statistics.median(times[n]) * 1000 for n in ("page", "typed"))
        print("an edit (add or remove MDA Overdrive), median of %d rounds" % ROUNDS)
        print("  from the page  %7.2f ms" % page_ms)
        print("  typed          %7.2f ms" % typed_ms)
        print("  page / typed   %7.2fx" % (page_ms / typed_ms))
    finally:
        if host is not None:
            host.stdin.close()
            host.wait(timeout=10)
        jack.terminate()
        jack.wait()


main()
