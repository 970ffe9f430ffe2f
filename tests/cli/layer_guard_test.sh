#!/usr/bin/env bash
# layer_guard_test.sh CXX LIB_DIR [INCLUDE_GRAPH]: every layer header that carries the guard of its layer (FLOWCERT_<LAYER>_INTERNAL)
# refuses to be included alone, naming the umbrella header (docs/design.md, "The house": a layer is used through
# lib/flowcert/<layer>.hpp only). At least one guarded header per layer (interval, linalg, taylor, ode, cert, nets).
# With INCLUDE_GRAPH (scripts/include-graph): the tree has no upward include and no include cycle, and a copy with
# an upward include (ode -> nets) or a cycle planted on purpose is refused, naming it.
set -uo pipefail
cxx=$1 lib=$2 graph=${3:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
for layer in interval linalg taylor ode cert nets; do
    macro="FLOWCERT_${layer^^}_INTERNAL"
    count=0
    for h in $(grep -l "!defined($macro)" "$lib/flowcert/$layer"/*.hpp); do
        out=$(printf '#include "%s"\n' "flowcert/$layer/$(basename "$h")" | "$cxx" -std=c++20 -fsyntax-only -I "$lib" -x c++ - 2>&1)
        [ $? -ne 0 ] || fail "$h compiles when included alone"
        grep -q "include <flowcert/$layer.hpp>" <<< "$out" || fail "$h: the error does not name <flowcert/$layer.hpp>: ${out:0:300}"
        count=$((count + 1))
    done
    [ "$count" -gt 0 ] || fail "layer $layer: no guarded header"
    echo "$layer: $count guarded headers refuse to be included alone"
done
if [ -n "$graph" ]; then
    python3 "$graph" --root "$lib/.." || fail "the include graph of the tree has a violation"
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    cp -r "$lib" "$tmp/lib"
    printf '#include <flowcert/nets.hpp>\n' >> "$tmp/lib/flowcert/ode/lohner_step.cpp"
    out=$(python3 "$graph" --root "$tmp" 2>&1); [ $? -eq 1 ] || fail "an upward include ode -> nets was not refused"
    grep -q "ode -> nets is not allowed" <<< "$out" || fail "the upward include is not named: ${out:0:300}"
    rm -rf "$tmp/lib"; cp -r "$lib" "$tmp/lib"
    printf '#include <flowcert/ode.hpp>\n' >> "$tmp/lib/flowcert/ode/integrator.hpp"
    out=$(python3 "$graph" --root "$tmp" 2>&1); [ $? -eq 1 ] || fail "an include cycle was not refused"
    grep -q "include cycle" <<< "$out" || fail "the cycle is not named: ${out:0:300}"
    echo "include graph: no upward include, no cycle; planted ones are refused"
fi
echo PASS
