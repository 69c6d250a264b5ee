#!/usr/bin/env bash
# The user's install, checked from outside the checkout (CI runs it; README, Quickstart):
# build the wheel, install it into a virtual environment of its own (as `pipx install .` or
# `uv tool install .` do), and run the installed `paperterm` from another folder: the
# bundled sample day scored, the themes and the topics listed.
#
#   scripts/check_installed.sh WORKDIR     (WORKDIR: an empty scratch folder)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mkdir -p "${1:?usage: scripts/check_installed.sh WORKDIR}" && cd "$1" && pwd)"
python="${PYTHON:-python3}"

"$python" -m pip wheel --quiet --no-deps --wheel-dir "$work/dist" "$root"
"$python" -m venv "$work/tool"
"$work/tool/bin/pip" install --quiet "$work"/dist/paperterm-*.whl

cd "$work"  # nothing of the checkout is reachable from here
unset PYTHONPATH
export PAPERTERM_HOME="$work/home" PAPERTERM_CONFIG="$work/config/config.toml"
paperterm="$work/tool/bin/paperterm"
where="$("$work/tool/bin/python" -c 'import paperterm; print(paperterm.__file__)')"
case "$where" in
  "$root"/*) echo "FAIL: the installed paperterm runs from the checkout ($where)"; exit 1 ;;
esac
"$paperterm" --version
"$paperterm" score --sample --json > "$work/scores.jsonl"
scored="$(wc -l < "$work/scores.jsonl")"
[ "$scored" -eq 244 ] || { echo "FAIL: the sample day scored $scored papers, not 244"; exit 1; }
"$paperterm" themes > "$work/themes.txt"
grep -q "paperterm-dark" "$work/themes.txt" || { echo "FAIL: no bundled theme listed"; exit 1; }
"$paperterm" topics > "$work/topics.txt"
grep -q "moe" "$work/topics.txt" || { echo "FAIL: no built-in topic listed"; exit 1; }
# the package's data tables: the moe topic's prior and the prefilter's recall curve
"$work/tool/bin/python" -c '
from paperterm.scoring.local.prior import direction
from paperterm.scoring.recall import CURVE_FILE
from paperterm.topics import builtin_topics
assert direction(builtin_topics()["moe"]) is not None, "no moe prior in the wheel"
assert CURVE_FILE.is_file(), "no prefilter recall curve in the wheel"
' || { echo "FAIL: a data table is missing from the wheel"; exit 1; }
echo "installed paperterm: the sample day scored ($scored papers), themes, topics and data tables"
