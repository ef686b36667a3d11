#!/usr/bin/env bash
# How often an idle `detent live --osc --http` wakes its threads, and how soon a change reaches
# an OSC subscriber. One private JACK server (dummy driver, 48 kHz, 256 frames); Detent with
# OSC and the browser panel, nothing connected, no page open, no controller.
#
#   Benchmarks/idle-wakeups.sh [seconds] [changes]       (defaults 10 and 50)
#
# Wake-ups: each thread's context switches (voluntary and not, /proc/PID/task/*/status) over
# the run, per second, for `detent` and `detent-web`; the audio thread (the process thread
# JACK runs, the busiest of `detent`'s) is shown but not counted in the total of the others.
# The change feed's goal: those others wake at most 10 times a second together.
#
# Latency: a UDP client subscribes (`/detent/subscribe`), then `changes` times a typed
# `set cutoff …` is written to Detent's input and the time until its `/detent/param/cutoff`
# arrives is taken; the median and the largest are shown (the goal: within 50 ms; the 20 ms
# per-parameter rate applies to a parameter changed again within 20 ms, which these are not).
set -euo pipefail
cd "$(dirname "$0")/.."

source Benchmarks/live-common.sh
# `detent` (release build), `work`, `median`.
source Benchmarks/common.sh
swift build -c release --static-swift-stdlib --product detent-web >&2
command -v python3 >/dev/null || { echo "$bench: python3 is missing" >&2; exit 1; }
live_session

seconds=${1:-10}
changes=${2:-50}
start_jack "detent-wakeups-$$" 256

"$detent" live --headless --osc 0 --http 0 --no-midi <"$work/commands" >/dev/null 2>"$work/detent.log" &
pid=$!
pids+=("$pid")
osc_port=""
for _ in $(seq 200); do
    osc_port=$(sed -n 's/^detent: OSC on UDP 127.0.0.1:\([0-9]*\)$/\1/p' "$work/detent.log")
    [ -n "$osc_port" ] && grep -q "web panel at" "$work/detent.log" && break
    sleep 0.05
done
[ -n "$osc_port" ] || { echo "$bench: detent did not start:" >&2; cat "$work/detent.log" >&2; exit 1; }
web=$(pgrep -P "$pid" -x detent-web || true)
[ -n "$web" ] || { echo "$bench: detent-web did not start" >&2; exit 1; }
sleep 1

# Context switches per thread: "TID NAME COUNT".
switches() {
    local t
    for t in /proc/"$1"/task/*; do
        printf '%s %s %s\n' "${t##*/}" "$(tr ' ' '_' <"$t/comm")" \
            "$(awk '/ctxt_switches/ { s += $2 } END { print s }' "$t/status")"
    done
}
switches "$pid" >"$work/detent.before"
switches "$web" >"$work/web.before"
sleep "$seconds"
switches "$pid" >"$work/detent.after"
switches "$web" >"$work/web.after"

rates() {  # BEFORE AFTER → "NAME RATE" per thread, busiest first
    join <(sort "$1") <(sort "$2") | awk -v s="$seconds" '{ printf "%s %.1f\n", $2, ($5 - $3) / s }' | sort -k2 -n -r
}
rates "$work/detent.before" "$work/detent.after" >"$work/detent.rates"
rates "$work/web.before" "$work/web.after" >"$work/web.rates"

echo "Wake-ups per second over ${seconds} s, idle (detent live --osc --http, nothing connected):"
echo "  detent:"
awk 'NR == 1 { printf "    %-18s %7.1f  (the audio thread: not counted)\n", $1, $2; next } $2 > 0 { printf "    %-18s %7.1f\n", $1, $2 }' "$work/detent.rates"
echo "  detent-web:"
awk '$2 > 0 { printf "    %-18s %7.1f\n", $1, $2 }' "$work/web.rates"
total=$(awk 'NR > 1 { s += $2 } END { printf "%.1f", s }' "$work/detent.rates")
web_total=$(awk '{ s += $2 } END { printf "%.1f", s }' "$work/web.rates")
echo "  every thread but the audio thread, both programs: $(echo "$total + $web_total" | bc) per second (goal: at most 10)"

# Feedback latency to an OSC subscriber, in milliseconds.
python3 - "$osc_port" "$work/commands" "$changes" <<'PY'
import socket, struct, sys, time, statistics
port, fifo, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])

def pad(b):
    return b + b"\0" * (4 - len(b) % 4)

def message(path, tags=",", *args):
    out = pad(path.encode()) + pad(tags.encode())
    for a in args: out += struct.pack(">f", a)
    return out

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
s.settimeout(2.0)
s.sendto(message("/detent/subscribe"), ("127.0.0.1", port))
# The values at subscription.
deadline = time.monotonic() + 1
while time.monotonic() < deadline:
    try: s.recv(512)
    except socket.timeout: break
latencies = []
with open(fifo, "w") as commands:
    for k in range(count):
        value = 300 + 7 * k
        sent = time.monotonic()
        commands.write(f"set cutoff {value}\n"); commands.flush()
        while True:
            data = s.recv(512)
            if data.startswith(b"/detent/param/cutoff"):
                break
        latencies.append((time.monotonic() - sent) * 1000)
        time.sleep(0.05)
print(f"OSC feedback of a typed change, {count} changes: median {statistics.median(latencies):.1f} ms, "
      f"largest {max(latencies):.1f} ms (goal: within 50 ms)")
PY
