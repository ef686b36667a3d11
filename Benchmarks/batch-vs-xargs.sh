#!/usr/bin/env bash
# Batches of many short files, the dataset case: one `detent render` over the whole batch
# against the same work spread by `xargs -P2` over one process per file — the way people
# batch ecasound, lv2file and sox today. Every tool gets both cores.
#
#   detent render in/*.wav --out-dir out --plugin od=OVERDRIVE --plugin eq=DJ_EQ --set …
#   ls in/*.wav | xargs -P2 … ecasound -i IN -o OUT -elv2:OVERDRIVE,… -elv2:DJ_EQ,…
#   detent render in/*.wav --out-dir out --plugin OVERDRIVE --set …
#   ls in/*.wav | xargs -P2 … lv2file -i IN -o OUT -p drive:0.4 … OVERDRIVE
#   detent render in/*.wav --out-dir out --set cutoff=1000 --set gain=-6       (200 files)
#   ls in/*.wav | xargs -P2 … sox IN OUT lowpass 1000 gain -6
#
# The chain is mda's Overdrive → swh's DJ EQ: ecasound (which gives plug-ins no LV2 features)
# can host both. ecasound runs with only those two bundles on LV2_PATH: as installed it loads
# every LV2 description on the system before each file (seconds each), which would make the
# comparison say nothing. Files: one-second 32-bit float stereo noise at 48 kHz, in memory.
#
# Usage: Benchmarks/batch-vs-xargs.sh [FILES] [ROUNDS]    (defaults 1000 and 1, about six minutes
#        on 2 cores, most of it ecasound's; the built-in row always uses 200 files)
# Needs: mda-lv2, swh-lv2, lv2file, sox (Scripts/setup installs them), ecasound (installed here
# when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
files="${1:-1000}"
rounds="${2:-1}"

if ! command -v ecasound > /dev/null; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "batch-vs-xargs: installing ecasound" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends ecasound
fi

source Benchmarks/common.sh

overdrive=http://drobilla.net/plugins/mda/Overdrive
djeq=http://plugin.org.uk/swh-plugins/dj_eq
mkdir "$work/lv2"
for uri in "$overdrive" "$djeq"; do
    bundle=$(lv2info "$uri" | sed -n 's|^[[:space:]]*Bundle:[[:space:]]*file://\(.*\)/$|\1|p' | head -n 1)
    ln -sfn "$bundle" "$work/lv2/$(basename "$bundle")"
done

make_inputs() {  # make_inputs COUNT FOLDER: COUNT hard links to one second of noise
    mkdir -p "$2"
    [ -f "$work/one.wav" ] || sox -R -n -r 48000 -c 2 -b 32 -e floating-point "$work/one.wav" synth 1 whitenoise vol 0.5
    for ((i = 0; i < $1; i++)); do ln "$work/one.wav" "$2/$(printf 'take%05d.wav' "$i")"; done
}
echo "making $files one-second files…" >&2
make_inputs "$files" "$work/in"
make_inputs 200 "$work/in200"
export LV2_PATH_LEAN="$work/lv2" OVERDRIVE="$overdrive" DJEQ="$djeq"

timed() {
    rm -rf "$work/out"
    mkdir "$work/out"
    case "$1" in
    detent_chain) "$detent" render "$work"/in/*.wav --out-dir "$work/out" --quiet --jobs 2 \
                      --plugin "od=$overdrive" --plugin "eq=$djeq" \
                      --set od.drive=0.4 --set od.muffle=0.2 --set od.output=0.5 \
                      --set eq.lo=3 --set eq.mid=-4 --set eq.hi=2 ;;
    ecasound) ls "$work"/in/*.wav | LV2_PATH="$work/lv2" xargs -P2 -I{} sh -c \
                  'ecasound -q -f:f32_le,2,48000 -i "$1" -o "$2/$(basename "$1")" \
                       -elv2:$OVERDRIVE,0.4,0.2,0.5 -elv2:$DJEQ,3,-4,2 > /dev/null' _ {} "$work/out" ;;
    detent_one) "$detent" render "$work"/in/*.wav --out-dir "$work/out" --quiet --jobs 2 \
                    --plugin "$overdrive" --set drive=0.4 --set muffle=0.2 --set output=0.5 ;;
    lv2file) ls "$work"/in/*.wav | xargs -P2 -I{} sh -c \
                 'lv2file -i "$1" -o "$2/$(basename "$1")" --ignore-clipping \
                      -p drive:0.4 -p muffle:0.2 -p output:0.5 $OVERDRIVE > /dev/null' _ {} "$work/out" ;;
    detent_builtin) "$detent" render "$work"/in200/*.wav --out-dir "$work/out" --quiet --jobs 2 \
                        --set cutoff=1000 --set gain=-6 ;;
    sox) ls "$work"/in200/*.wav | xargs -P2 -I{} sh -c \
             'sox "$1" "$2/$(basename "$1")" lowpass 1000 gain -6' _ {} "$work/out" ;;
    esac
    local made
    made=$(ls "$work/out" | wc -l)
    case "$1" in detent_builtin|sox) want=200 ;; *) want=$files ;; esac
    [ "$made" -eq "$want" ] || { echo "batch-vs-xargs: $1 wrote $made of $want files" >&2; exit 1; }
}

seconds() { echo "$1 / 1000000" | bc -l; }
echo "| batch | Detent | peer | Detent / peer |"
echo "|---|---|---|---|"
time_rounds "$rounds" detent_chain ecasound
printf "| %d files, 2-plug-in LV2 chain, vs xargs -P2 ecasound | %.1f s | %.1f s | %.2f× |\n" "$files" \
    "$(seconds "$median_detent_chain")" "$(seconds "$median_ecasound")" "$(echo "$median_detent_chain / $median_ecasound" | bc -l)"
time_rounds "$rounds" detent_one lv2file
printf "| %d files, one LV2 plug-in, vs xargs -P2 lv2file | %.1f s | %.1f s | %.2f× |\n" "$files" \
    "$(seconds "$median_detent_one")" "$(seconds "$median_lv2file")" "$(echo "$median_detent_one / $median_lv2file" | bc -l)"
time_rounds "$rounds" detent_builtin sox
printf "| 200 files, built-in lowpass + gain, vs xargs -P2 sox | %.2f s | %.2f s | %.2f× |\n" \
    "$(seconds "$median_detent_builtin")" "$(seconds "$median_sox")" "$(echo "$median_detent_builtin / $median_sox" | bc -l)"
