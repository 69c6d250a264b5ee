#!/usr/bin/env bash
# Run the whole test suite N times in a row (default 5) with a CPU hog beside it (one busy
# process per core), stopping at the first failing run and saying which one it was.
#
#   scripts/soak.sh                 # 5 runs of the whole suite under load
#   scripts/soak.sh --runs 1 tests/tui/test_triage_keys.py -k header   # pytest args follow
#   SOAK_HOGS=4 scripts/soak.sh     # more (or fewer: 0) busy processes than cores
#   scripts/soak.sh --heavy         # two busy processes per core (a shared machine at
#                                   # load ~8 on 2 cores); --heavy goes before --runs
# (pytest's own options, such as -n 0 for one process, pass through too)
set -u

runs=5
per_core=1
if [ "${1-}" = "--heavy" ]; then
    per_core=2
    shift
fi
if [ "${1-}" = "--runs" ]; then
    runs=${2:?"--runs needs a number"}
    shift 2
fi
case $runs in
    ''|*[!0-9]*|0) echo "soak.sh: --runs wants a positive number, not '$runs'" >&2; exit 2 ;;
esac
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
hogs=${SOAK_HOGS:-$(( cores * per_core ))}

pids=()
stop_hogs() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    pids=()
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM

for _ in $(seq "$hogs"); do
    yes > /dev/null &
    pids+=($!)
done
echo "soak: $runs run(s) of pytest $* with $hogs busy process(es) beside it"

for run in $(seq "$runs"); do
    start=$(date +%s)
    if ! python -m pytest -p no:cacheprovider -q "$@"; then
        echo "soak: run $run of $runs FAILED (after $(( $(date +%s) - start )) s)" >&2
        exit 1
    fi
    echo "soak: run $run of $runs passed ($(( $(date +%s) - start )) s)"
done
echo "soak: all $runs runs passed under load"
