#!/usr/bin/env bash
# Sweep split + merge through the verifier command line (issue 7; cert/sweep.hpp). Usage:
#   sweep_split_test.sh VERIFIER CASE CERT_COMPARE FLOWCERT
# The case's sweep is split in k = min(3, points) parts (points i mod k); the merge must write the certificate of
# the direct run (equal up to timing fields, and accepted by flowcert check). A part with one
# interval bit changed, a part with a point dropped, parts that miss a point, a duplicated part and
# a part of another case file must each make the merge fail with exit 4 and no certificate.
set -uo pipefail
verifier=$1 case_file=$2 compare=$3 flowcert=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
stem=$(basename "$case_file" .toml)
cp "$case_file" "$tmp/case.toml"
cd "$tmp"

n=$("$verifier" --case case.toml --sweep-count) || fail "--sweep-count exited $?"
[[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 2 ] || fail "--sweep-count printed '$n', expected a count >= 2"
echo "sweep of $n points"

"$verifier" --case case.toml --out out --quiet > direct.txt; rc_direct=$?
[ -f out/case.json ] || fail "no certificate from the direct run (exit $rc_direct)"
mv out direct

parts=$((n < 3 ? n : 3)) last=$((n < 3 ? 1 : 2))
lists=("" "" "")
for ((i = 0; i < n; ++i)); do lists[i % parts]+="${lists[i % parts]:+,}$i"; done
for ((k = 0; k < parts; ++k)); do
    "$verifier" --case case.toml --quiet --sweep-points "${lists[k]}" --sweep-out "part$k.json" > /dev/null \
        || fail "part $k (${lists[k]}) exited $?"
    [ -f "part$k.json" ] || fail "part $k not written"
done
[ ! -e out ] || fail "a --sweep-points run wrote a report"

"$verifier" --case case.toml --out out --quiet --sweep-merge $(for ((k = parts - 1; k >= 0; --k)); do echo "part$k.json"; done) > merged.txt; rc=$?
[ "$rc" -eq "$rc_direct" ] || fail "merge exited $rc, the direct run $rc_direct"
"$compare" direct/case.json out/case.json || fail "the merged certificate differs from the direct one"
grep -q -- "--sweep-merge" out/case.json && fail "the merged certificate records the --sweep-merge command line"
"$flowcert" check --quiet out/case.json || fail "the merged certificate does not pass flowcert check"
rm -rf out

expect_refused() {  # what, then the parts
    local what=$1; shift
    "$verifier" --case case.toml --out out --quiet --sweep-merge "$@" > refused.txt 2>&1; local rc=$?
    [ "$rc" -eq 4 ] || { cat refused.txt; fail "$what: merge exited $rc, expected 4"; }
    grep -q "incomplete run, no report" refused.txt || { cat refused.txt; fail "$what: no clear message"; }
    [ ! -e out/case.json ] || fail "$what: a certificate was written"
    echo "refused ($what): $(tail -1 refused.txt)"
}
# one bit of one interval bound changed (the last hex digit of the first bound in part 1)
python3 - part1.json bitflip.json <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r'"(-?0x[0-9a-f.]+)p', text)
assert m, "no hexadecimal bound in the part"
d = m.end(1) - 1
flipped = format(int(text[d], 16) ^ 1, 'x')
open(sys.argv[2], 'w').write(text[:d] + flipped + text[d + 1:])
PY
cmp -s part1.json bitflip.json && fail "the corruption changed nothing"
others=$( ((parts == 3)) && echo part2.json)
expect_refused "one interval bit changed" part0.json bitflip.json $others
# a point dropped from a part (the part's JSON stays well formed)
python3 - part$last.json dropped.json <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["points"].pop()
json.dump(j, open(sys.argv[2], "w"), indent=1)
PY
all_parts=$(for ((k = 0; k < parts; ++k)); do echo "part$k.json"; done)
expect_refused "a point dropped from a part" $(for ((k = 0; k < parts; ++k)); do ((k == last)) && echo dropped.json || echo "part$k.json"; done)
expect_refused "a part missing" $(for ((k = 0; k < parts - 1; ++k)); do echo "part$k.json"; done)
expect_refused "a part given twice" $all_parts part1.json
# genuine parts that leave one point out
all_but_last=$(seq -s, 0 $((n - 2)))
"$verifier" --case case.toml --quiet --sweep-points "$all_but_last" --sweep-out most.json > /dev/null || fail "part exited $?"
expect_refused "the last point computed by no part" most.json
# a part of another case file (one more description line changes the file's SHA-256)
{ cat case.toml; echo "# another case"; } > other.toml
"$verifier" --case other.toml --quiet --sweep-points "${lists[1]}" --sweep-out foreign.json > /dev/null || fail "foreign part exited $?"
expect_refused "a part of another case file" part0.json foreign.json $others
grep -q "another case file" refused.txt || fail "the message does not name the foreign case file"
# a point the sweep does not have
"$verifier" --case case.toml --quiet --sweep-points "$n" --sweep-out bad.json > bad.txt 2>&1; rc=$?
[ "$rc" -eq 3 ] || { cat bad.txt; fail "--sweep-points $n exited $rc, expected 3"; }
echo PASS
