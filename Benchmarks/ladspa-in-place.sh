#!/usr/bin/env bash
# Which installed LADSPA plug-ins sound different when run in place: ladspa-sdk's applyplugin
# runs every plug-in with its output in its input's buffer; Detent gives each output a buffer
# of its own. A plug-in that is broken in place without saying so (LADSPA_PROPERTY_INPLACE_BROKEN)
# then sounds different under applyplugin, and the difference is applyplugin's (see
# docs/ladspa.md). Compiles Benchmarks/ladspa-in-place.c and runs it over every library of
# LADSPA_PATH; prints label, verdict (in-place, varies, same), largest difference, peak.
#
# Usage: Benchmarks/ladspa-in-place.sh [LIBRARY.so…]
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"${CC:-$(command -v cc || command -v clang)}" -O1 -o "$work/in-place" Benchmarks/ladspa-in-place.c -ldl -lm
if [ $# -eq 0 ]; then
    IFS=: read -r -a folders <<< "${LADSPA_PATH:-/usr/lib/ladspa:/usr/local/lib/ladspa:$HOME/.ladspa}"
    set -- $(for f in "${folders[@]}"; do ls "$f"/*.so 2>/dev/null || true; done)
fi
for library in "$@"; do
    timeout 30 "$work/in-place" "$library" || echo "$(basename "$library")	(failed or timed out)"
done
