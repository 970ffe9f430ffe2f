#!/usr/bin/env bash
# MPI tests of `flowcert certify --mpi` (issue 7). MPIRUN is the launcher with its flags, one word
# list (e.g. "mpiexec --oversubscribe"). Usage:
#   mpi_certify_test.sh compare MPIRUN FLOWCERT CERT_COMPARE VERIFIERS_DIR THROWING CASES_ROOT CLI_DIR
#       a few fast shipped cases, the throwing verifier (a case that errors on a rank) and the mismatch
#       cases, once in one process and once on 2 ranks: every certificate equal up to timing fields
#       (and valid under flowcert check), the same summary, both ranks used; the sweep cases
#       (demo, rh/gap_sweep_fast, bf/theorem1_figure2_fast) split into parts run on both ranks and
#       merged on rank 0, no part left behind; a second run sized by the first one's timings, and
#       one with --no-sweep-split, give the same certificates again;
#       flowcert refuses to run as several ranks without --mpi.
#   mpi_certify_test.sh part-fails MPIRUN FLOWCERT VERIFIERS_DIR CASES_ROOT
#       every sweep part of a split case is killed by --timeout: the case is TIMEOUT (naming a sweep
#       part and its rank), without a certificate, as a whole case would be; the parts are kept.
#   mpi_certify_test.sh kill MPIRUN FLOWCERT VERIFIERS_DIR KILLER KILL_CASES
#       a worker rank is killed mid-run: clear INCOMPLETE message, index marked INCOMPLETE, the
#       finished certificate kept and valid, the others NOT RUN and without certificates.
set -uo pipefail
mode=$1; shift
read -ra mpirun <<< "$1"; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI may run as root

case $mode in
compare)
    flowcert=$1 compare=$2 verifiers=$3 throwing=$4 cases_root=$5 cli=$6
    mkdir -p "$tmp/verifiers/test" "$tmp/cases"/{demo,bf,kh,rh,test}
    for p in bf kh rh demo; do ln -s "$verifiers/$p" "$tmp/verifiers/$p"; done
    ln -s "$throwing" "$tmp/verifiers/test/throwing"
    cp "$cases_root"/demo/*.toml "$tmp/cases/demo/"
    for c in bf/extremal_vectors_figure2 bf/theorem2_hypotheses_figure2 bf/lemma1_tolerance_too_small \
             kh/ncf_kkt_example1 kh/ncf_kkt_figure1_small rh/gap_fast rh/gap_sweep_fast rh/pattern_m1_fast \
             bf/theorem1_figure2_fast; do
        cp "$cases_root/$c.toml" "$tmp/cases/$c.toml" || fail "no case $c"
    done
    cp "$cli/throwing.toml" "$tmp/cases/test/"
    cp "$cli"/mismatch_cases/*.toml "$tmp/cases/test/"
    n=$(find "$tmp/cases" -name '*.toml' | wc -l)
    cd "$tmp"  # both runs see the same relative paths, so the certificates' command lines agree
    "$flowcert" certify --cases cases --out reports --verifiers verifiers --jobs 2 > single.out 2>&1; rc1=$?
    mv reports single
    "${mpirun[@]}" -np 2 "$flowcert" certify --mpi --cases cases --out reports --verifiers verifiers \
        > mpi.out 2> mpi.err; rc2=$?
    cat mpi.out mpi.err
    [ "$rc1" -eq 3 ] || fail "single-process run: exit $rc1, expected 3 (the bad case and the unknown verifier)"
    [ "$rc2" -ne 0 ] || fail "MPI run: exit 0 despite the mismatch cases"
    grep -q "MISMATCH  test/throwing: ERROR (expected CERTIFIED)" mpi.out || fail "the erroring case is not reported"
    grep -q "^$((n - 4))/$n cases as expected" mpi.out || fail "summary line missing (4 expected mismatches)"
    per_rank=$(grep -o "cases run per rank: [0-9: ]*" mpi.out) || fail "no per-rank line"
    echo "$per_rank" | grep -q " 1:[1-9]" || fail "rank 1 ran no case ($per_rank)"
    # the sweep cases were split into parts, run on both ranks
    grep -q "sweep     rh/gap_sweep_fast: 18 points in 4 parts" mpi.out || fail "rh/gap_sweep_fast was not split"
    grep -q "sweep     bf/theorem1_figure2_fast: 2 points in 2 parts" mpi.out || fail "bf/theorem1_figure2_fast was not split"
    parts_per_rank=$(grep -o "sweep parts run per rank: .*" mpi.out) || fail "no sweep-parts line"
    echo "$parts_per_rank" | grep -q " 0:[1-9]" && echo "$parts_per_rank" | grep -q " 1:[1-9]" \
        || fail "the sweep parts did not run on both ranks ($parts_per_rank)"
    [ ! -e reports/.sweep ] || { find reports/.sweep; fail "sweep parts left behind"; }
    (cd single && find . -name '*.json' | sort) > single.list
    (cd reports && find . -name '*.json' | sort) > mpi.list
    cmp -s single.list mpi.list || { diff single.list mpi.list; fail "different sets of JSON files"; }
    [ "$(grep -c json single.list)" -ge 10 ] || fail "too few certificates to compare"
    "$compare" single/demo/sqrt2_certified.json single/demo/sqrt2_false_bound.json > /dev/null \
        && fail "cert_compare finds two different certificates equal"
    while read -r f; do
        "$compare" "single/$f" "reports/$f" || fail "$f differs between 1 process and 2 ranks"
        [ "$f" = ./summary.json ] && continue
        "$flowcert" check --quiet "reports/$f" || fail "$f from the MPI run does not pass flowcert check"
    done < mpi.list
    [ "$(grep -c '<tr class="case"' reports/index.html)" -eq "$n" ] || fail "index.html does not have one row per case"
    grep -q INCOMPLETE reports/index.html && fail "a complete run's index says INCOMPLETE"
    # again into the same directory: the previous timings size the split (a sweep case timed under
    # 2 s runs whole), and the certificates are still those of one process
    "${mpirun[@]}" -np 2 "$flowcert" certify --mpi --cases cases --out reports --verifiers verifiers \
        --only 'demo/*' > again.out 2>&1
    grep -q "sweep     demo/sqrt2_certified" again.out && { cat again.out; fail "a sweep case timed under 2 s was split"; }
    for f in demo/sqrt2_certified.json demo/sqrt2_false_bound.json demo/sqrt2_low_precision.json; do
        "$compare" "single/$f" "reports/$f" || fail "$f differs after a run sized by the previous timings"
    done
    # the same run without splitting the sweeps: the same certificates
    mv reports split
    "${mpirun[@]}" -np 2 "$flowcert" certify --mpi --no-sweep-split --cases cases --out reports --verifiers verifiers \
        --only 'rh/gap_sweep_fast' --only 'bf/theorem1_figure2_fast' > nosplit.out 2>&1
    grep -q "points in" nosplit.out && fail "--no-sweep-split split a sweep"
    for f in rh/gap_sweep_fast.json bf/theorem1_figure2_fast.json; do
        "$compare" "single/$f" "reports/$f" || fail "$f differs between 1 process and 2 ranks without splitting"
    done
    # started as 2 ranks without --mpi: refused (every rank would run every case)
    "${mpirun[@]}" -np 2 "$flowcert" certify --cases cases --out r3 --verifiers verifiers > o3 2>&1; rc3=$?
    [ "$rc3" -ne 0 ] || fail "certify under mpirun without --mpi exited 0"
    grep -q "without --mpi" o3 || { cat o3; fail "no message about the missing --mpi"; } ;;
part-fails)
    flowcert=$1 verifiers=$2 cases_root=$3
    mkdir -p "$tmp/verifiers" "$tmp/cases/bf"
    ln -s "$verifiers/bf" "$tmp/verifiers/bf"
    cp "$cases_root/bf/theorem1_figure2_sweep.toml" "$tmp/cases/bf/"
    cd "$tmp"
    "${mpirun[@]}" -np 2 "$flowcert" certify --mpi --cases cases --out reports --verifiers verifiers --timeout 0.01 \
        > out 2> err; rc=$?
    cat out err
    [ "$rc" -ne 0 ] || fail "exit 0 although every sweep part timed out"
    grep -q "sweep     bf/theorem1_figure2_sweep: 8 points in 4 parts" out || fail "the case was not split"
    grep -q "MISMATCH  bf/theorem1_figure2_sweep: TIMEOUT (expected CERTIFIED): sweep part [0-3] of 4 (points .*) on rank [01]: killed after" out \
        || fail "the case is not TIMEOUT naming the sweep part and its rank"
    [ ! -e reports/bf/theorem1_figure2_sweep.json ] || fail "a certificate was written for a case whose parts failed"
    grep -q '"verdict": "TIMEOUT"' reports/summary.json || fail "summary.json does not say TIMEOUT"
    grep -q INCOMPLETE reports/index.html && fail "a finished run (with a failed case) says INCOMPLETE" ;;
kill)
    flowcert=$1 verifiers=$2 killer=$3 cases=$4
    mkdir -p "$tmp/verifiers/test"
    ln -s "$verifiers/demo" "$tmp/verifiers/demo"
    ln -s "$killer" "$tmp/verifiers/test/rank_killer"
    cp -r "$cases" "$tmp/cases"
    cd "$tmp"
    start=$(date +%s)
    # the killer waits until rank 0 reports the short case finished (--no-sweep-split: a_short runs whole)
    export FLOWCERT_TEST_KILL_AFTER="$tmp/out" FLOWCERT_TEST_KILL_AFTER_TEXT="a_short: CERTIFIED"
    "${mpirun[@]}" -x FLOWCERT_TEST_KILL_AFTER -x FLOWCERT_TEST_KILL_AFTER_TEXT -np 2 "$flowcert" certify --mpi --no-sweep-split --cases cases --out reports \
        --verifiers verifiers --jobs 1 > out 2> err; rc=$?
    cat out err
    [ $(( $(date +%s) - start )) -lt 100 ] || fail "the run did not end promptly after the rank died"
    [ "$rc" -ne 0 ] || fail "exit 0 although a rank died"
    grep -q "INCOMPLETE RUN" err || fail "no INCOMPLETE RUN message on stderr"
    grep -q "certificates are kept" err || fail "the message does not say what was kept"
    grep -q "INCOMPLETE" reports/index.html || fail "index.html is not marked INCOMPLETE"
    grep -q "INCOMPLETE" reports/index.md || fail "index.md is not marked INCOMPLETE"
    [ -f reports/a_short.json ] || fail "the finished certificate was not kept"
    grep -q '"verdict": "CERTIFIED"' reports/a_short.json || fail "the finished certificate is not CERTIFIED"
    "$flowcert" check --quiet reports/a_short.json || fail "the kept certificate does not pass flowcert check"
    for c in b_rank_killer c_rank_killer; do
        [ ! -e "reports/$c.json" ] || fail "a certificate exists for the unfinished case $c"
    done
    [ "$(grep -o '"verdict": "NOT RUN"' reports/summary.json | wc -l)" -eq 2 ] || fail "summary.json lacks 2 NOT RUN rows"
    grep -q "unfinished on rank" reports/summary.json || fail "summary.json does not name the rank" ;;
*) fail "unknown mode $mode" ;;
esac
echo PASS
