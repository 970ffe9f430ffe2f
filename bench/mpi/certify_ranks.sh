#!/usr/bin/env bash
# Wall time of `flowcert certify --mpi` over a case set on 1 rank and on N ranks, in one script so
# both runs see the same machine; prints the times and their ratio and checks that the two report
# sets agree (verdicts per case). Usage: bench/mpi/certify_ranks.sh [N=2] [extra certify args...]
# e.g. bench/mpi/certify_ranks.sh 2 --label fast     (the whole shipped set when no filter is given)
set -euo pipefail
cd "$(dirname "$0")/../.."
ranks=${1:-2}; shift || true
flowcert=build/tools/flowcert
flags=(--oversubscribe --bind-to none)
[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
out=$(mktemp -d)
run() {  # run <ranks> -> prints wall seconds
  local start end
  start=$(date +%s.%N)
  mpirun "${flags[@]}" -np "$1" "$flowcert" certify --mpi --cases cases --out "$out/np$1" --quiet "${@:2}" > "$out/np$1.log" 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
t1=$(run 1 "$@")
tn=$(run "$ranks" "$@")
printf '1 rank: %.1f s\n%s ranks: %.1f s\nspeed-up: %.2fx\n' "$t1" "$ranks" "$tn" "$(echo "$t1 / $tn" | bc -l)"
verdicts() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); [print(c["case"], c["verdict"]) for c in sorted(d, key=lambda c: c["case"])]' "$1/summary.json"; }
if diff <(verdicts "$out/np1") <(verdicts "$out/np$ranks") > /dev/null; then
  echo "verdicts agree ($(verdicts "$out/np1" | wc -l) cases); reports in $out"
else
  echo "verdicts differ between 1 and $ranks ranks; reports in $out"; exit 1
fi
