#!/usr/bin/env bash
# A 2 x 2 sweep run by another engine gives the same results.csv, byte for
# byte, as `tdsim sweep` run here:
#   sweep_engines_test.sh parallel   scripts/sweep-parallel (GNU parallel, two jobs)
#   sweep_engines_test.sh slurm      scripts/sweep-slurm on a one-node cluster
#                                    (scripts/slurm-local), started and stopped here
# Exit 77 (CTest: skipped) with a message when the engine is absent.
set -euo pipefail

engine=${1:?usage: sweep_engines_test.sh parallel|slurm}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TDSIM=$(realpath "${TDSIM:?set TDSIM to the tdsim binary}")
export TDSIM
work=$(mktemp -d /tmp/tdsim-sweep-XXXXXX)
chmod 755 "$work"  # munged refuses a socket under a folder others cannot search
cluster=""
cleanup() {
  if [ -n "$cluster" ]; then "$root/scripts/slurm-local" stop "$cluster" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

sweep=(--config small --set l1.mshrs=8,16 --set td.return_buffer_entries=4,8)
workload=(-- peak --waves 4 --bandwidth-waves 1 --no-latency)

"$TDSIM" sweep "${sweep[@]}" --out "$work/local" -j 2 "${workload[@]}" > "$work/local.log"

case "$engine" in
  parallel)
    if ! command -v parallel >/dev/null; then
      echo "SKIPPED: GNU parallel is not installed (apt-get install parallel; scripts/bootstrap does)"
      exit 77
    fi
    "$root/scripts/sweep-parallel" -j 2 "${sweep[@]}" --out "$work/engine" "${workload[@]}"
    ;;
  slurm)
    if ! why=$("$root/scripts/slurm-local" check); then
      echo "SKIPPED: $why"
      exit 77
    fi
    cluster="$work/cluster"
    eval "$("$root/scripts/slurm-local" start "$cluster")"
    (cd "$work" && "$root/scripts/sweep-slurm" --wait "${sweep[@]}" --out engine "${workload[@]}")
    ;;
  *) echo "unknown engine $engine" >&2; exit 2 ;;
esac

if ! cmp "$work/local/results.csv" "$work/engine/results.csv"; then
  diff "$work/local/results.csv" "$work/engine/results.csv" || true
  exit 1
fi
[ "$(wc -l < "$work/engine/results.csv")" -eq 5 ] || { echo "expected a header and 4 points"; exit 1; }
grep -q ',ok,0,' "$work/engine/results.csv"
for k in 0000 0001 0002 0003; do
  for f in point.json report.json stats.csv config.yaml output.txt; do
    [ -s "$work/engine/points/$k/$f" ] || { echo "missing $work/engine/points/$k/$f"; exit 1; }
  done
done
echo "$engine: results.csv identical to the local sweep's"
