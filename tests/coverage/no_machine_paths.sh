#!/usr/bin/env bash
# No tracked file names a path of the machine it was written on (issue 15): certificates, docs and
# code must read the same on every machine. Usage: no_machine_paths.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
if ! git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  echo "not a git checkout: nothing to check"; exit 0
fi
hits=$(git ls-files -z | xargs -0 grep -nIE '(^|[^A-Za-z0-9_.])/(work|root|home/[A-Za-z0-9_]+|Users/[A-Za-z0-9_]+)/' -- 2>/dev/null \
       | grep -v '^tests/coverage/no_machine_paths.sh:')
if [ -n "$hits" ]; then
  echo "FAIL: machine paths in tracked files:"; echo "$hits"; exit 1
fi
echo "no machine paths in $(git ls-files | wc -l) tracked files"
