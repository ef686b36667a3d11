# Sourced by the benchmarks that run `detent live` next to jalv, each subject alone on a
# private JACK server (idle-worker-vs-jalv.sh, live-vs-jalv.sh), from the package root. Its
# messages start with the script's name ($0 without folder and .sh). It gives them:
#
#   live_needs PACKAGE BUNDLE [TOOL…]
#                               installs jalv and the plug-ins' Debian PACKAGE (apt-get, via
#                               sudo when not root) if jalv or the LV2 bundle folder BUNDLE is
#                               missing, then stops the script if jackd, jalv, jack_lsp or a
#                               TOOL is missing
#   live_session                once `work` (a scratch folder) is set: `pids` (what to stop on
#                               exit), an EXIT trap that stops them in reverse order and removes
#                               `work`, and the FIFO "$work/commands" that subjects read
#   start COMMAND…              runs COMMAND in the background, stopped on exit
#   start_jack NAME FRAMES      starts JACK server NAME (dummy driver, 48 kHz, FRAMES a
#                               period) and makes it every client's; returns once it runs
#   start_subject COMMAND…      starts a subject (input the FIFO, output discarded); sets `pid`
#   stop_subject                stops the subject `pid`
#   live_chain_needs            live_needs for the three-plug-in chain benchmarks
#   wait_for_port PORT          waits for a JACK port (up to 10 s; stops the script if not)
#   cpu_seconds PID             CPU seconds PID has used so far
bench=$(basename "$0" .sh)

live_needs() {
    local peers=() sudo="" tool
    command -v jalv >/dev/null || peers+=(jalv)
    [ -d "$2" ] || peers+=("$1")
    if ((${#peers[@]})); then
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        echo "$bench: installing ${peers[*]}" >&2
        $sudo apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${peers[@]}" >&2
    fi
    for tool in jackd jalv jack_lsp "${@:3}"; do
        command -v "$tool" >/dev/null || { echo "$bench: $tool is missing (run Scripts/setup)" >&2; exit 1; }
    done
}

# live_chain_needs: what the three-plug-in chain benchmarks run (mda's Overdrive, x42's darc,
# swh's dj_eq) and JACK's example clients they measure with.
live_chain_needs() {
    live_needs mda-lv2 /usr/lib/lv2/mda.lv2
    live_needs x42-plugins /usr/lib/lv2/darc.lv2
    live_needs swh-lv2 /usr/lib/lv2/dj_eq-swh.lv2 jack_cpu_load jack_simple_client jack_connect
}

live_session() {
    pids=()
    trap live_cleanup EXIT
    # The subjects read commands from standard input: a FIFO this script holds open, so they
    # never see the end of their input and nothing outlives the script.
    mkfifo "$work/commands"
    exec 3<>"$work/commands"
}

# Stops everything in reverse order (clients before the server, which then shuts down
# cleanly and leaves JACK's server registry), then removes the scratch folder.
live_cleanup() {
    local i
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill "${pids[i]}" 2>/dev/null || true
        wait "${pids[i]}" 2>/dev/null || true
    done
    rm -rf "$work"
}

start() { "$@" & pids+=($!); }

start_jack() {
    export JACK_DEFAULT_SERVER="$1" JACK_NO_START_SERVER=1
    start jackd --no-realtime -n "$1" -d dummy -r 48000 -p "$2" >/dev/null 2>&1
    wait_for_port system:playback_1
}

# (The input is redirected here, not through `start`: an asynchronous command's input is
# /dev/null unless redirected on that very command.)
start_subject() {
    "$@" <"$work/commands" >/dev/null 2>&1 &
    pid=$!
    pids+=("$pid")
}

# The subject is the last of `pids`.
stop_subject() {
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    unset 'pids[${#pids[@]}-1]'
}

wait_for_port() {
    for _ in $(seq 200); do
        jack_lsp 2>/dev/null | grep -x "$1" >/dev/null && return 0
        sleep 0.05
    done
    echo "$bench: port $1 did not appear" >&2
    exit 1
}

# CPU seconds a process has used so far, all its threads, to the nanosecond
# (/proc/PID/task/*/schedstat: the first field is the time on a CPU, in ns).
cpu_seconds() {
    cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.6f", s / 1e9 }'
}

# The server's DSP load over `$seconds` seconds, from jack_cpu_load's once-a-second readings:
# "MEAN QUIETEST" in % (other work on the machine only ever adds to the load, so the quietest
# second is the cleanest).
server_load() {
    { timeout -k 2 "$seconds" jack_cpu_load 2>/dev/null || true; } |
        awk '/DSP load/ { s += $4; n++; if (n == 1 || $4 < m) m = $4 } END { printf "%.3f %.3f", n ? s / n : 0, m }'
}
