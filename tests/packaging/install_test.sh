#!/usr/bin/env bash
# The installed package works for a downstream user (issue 18):
#   cmake --install into a fresh prefix; a downstream CMake project finds it with find_package(flowcert)
#   and runs; pkg-config knows flowcert.pc; the installed command, a verifier and the Python module report
#   the project version; the installed `flowcert certify` finds the installed verifiers and cases.
# usage: install_test.sh BUILD_DIR SOURCE_DIR VERSION PYTHON
set -euo pipefail
build=$1 src=$2 version=$3 python=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"

echo "== find_package(flowcert) from a downstream project"
cmake -S "$src/tests/packaging/downstream" -B "$work/downstream" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/downstream" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
out=$("$work/downstream/downstream")
echo "$out"
[[ $out == "flowcert $version: "*"(contains exp(-1))" ]]

echo "== pkg-config"
pc=$(find "$prefix" -name flowcert.pc)
[ "$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --modversion flowcert)" = "$version" ]
PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs flowcert | grep -q -- "-lflowcert_interval"

echo "== versions of the command, a verifier and the Python module"
"$prefix/bin/flowcert" --version | grep -q "^flowcert $version "
"$prefix/libexec/flowcert/verifiers/demo/sqrt_bounds" --version | grep -q "(flowcert $version, "
pydir=$(dirname "$(find "$prefix" -path '*-packages/flowcert/__init__.py')")
[ "$(PYTHONPATH=$(dirname "$pydir") "$python" -c 'import flowcert; print(flowcert.__version__)')" = "$version" ]

echo "== the installed flowcert certifies an installed case"
"$prefix/bin/flowcert" certify --cases "$prefix/share/flowcert/cases" --only demo/sqrt2_certified \
  --out "$work/reports" --quiet >"$work/certify.log" || { cat "$work/certify.log"; exit 1; }
grep -q '"flowcert_version": "'"$version"'"' "$work/reports/demo/sqrt2_certified.json"
echo "install test passed"
