#!/usr/bin/env bash
# Finding a plug-in and listing them, with the LV2 index and without, against lilv's own tools
# in the same rounds:
#
#   detent params --plugin "MDA Overdrive"     (by name: the index, then one description)
#   the same without a cache folder            (every description read, as before the index)
#   detent params --plugin URI  /  lv2info URI (one description)
#   detent plugins  /  lv2ls --names           (the whole listing; lv2ls reads every description)
#
# Each round runs every subject once (the order rotates); the report gives each one's median
# wall time and its largest resident size.
#
# Usage: Benchmarks/plugin-lookup.sh [ROUNDS]      (default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-7}"

source Benchmarks/common.sh

uri=http://drobilla.net/plugins/mda/Overdrive
export XDG_CACHE_HOME="$work/cache"
: >"$work/home-is-a-file"
"$detent" plugins >/dev/null   # writes the index

subjects=(name name-without-index uri lv2info plugins lv2ls)
declare -A rss=()
timed() {
    local command
    case "$1" in
        name) command=("$detent" params --plugin "MDA Overdrive") ;;
        name-without-index) command=(env XDG_CACHE_HOME= HOME="$work/home-is-a-file" "$detent" params --plugin "MDA Overdrive") ;;
        uri) command=("$detent" params --plugin "$uri") ;;
        lv2info) command=(lv2info "$uri") ;;
        plugins) command=("$detent" plugins) ;;
        lv2ls) command=(lv2ls --names) ;;
    esac
    /usr/bin/time -f %M -o "$work/rss" "${command[@]}" >/dev/null
    local kb
    kb=$(tail -n 1 "$work/rss")
    if (( kb > ${rss[$1]:-0} )); then rss[$1]=$kb; fi
}
time_rounds "$rounds" "${subjects[@]}"

printf '%-20s %10s %10s\n' subject "median ms" "max MB"
for s in "${subjects[@]}"; do
    m="median_${s//-/_}"
    awk -v s="$s" -v us="${!m}" -v kb="${rss[$s]}" 'BEGIN { printf "%-20s %10.1f %10.1f\n", s, us / 1000, kb / 1024 }'
done
awk -v a="$median_name" -v b="$median_name_without_index" -v c="$median_plugins" -v d="$median_lv2ls" \
    'BEGIN { printf "by name with the index / without: %.3fx; detent plugins / lv2ls --names: %.3fx\n", a / b, c / d }'
