#!/usr/bin/env bash
# The HTML report opens in headless Chromium without console errors and its SVG plots render.
#   html_test.sh VERIFIER CASE
set -uo pipefail
verifier=$1 case_file=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v chromium > /dev/null || fail "chromium is not installed (scripts/install-deps installs it)"

chrome() {  # chrome OUT_STDOUT OUT_STDERR args...
    local o=$1 e=$2; shift 2
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$tmp")" --enable-logging=stderr --v=0 "$@" > "$o" 2> "$e"
}
console_errors() { grep -E 'CONSOLE|Uncaught|SyntaxError|ReferenceError|Failed to load resource' "$1"; }

"$verifier" --case "$case_file" --out "$tmp/out" --quiet > /dev/null
html="$tmp/out/$(basename "$case_file" .toml).html"
[ -f "$html" ] || fail "no HTML report written"

# 0. negative control: the console-error detection must see a broken page's error.
printf '<!DOCTYPE html><html><body><script>undefined_function_xyz();</script></body></html>' > "$tmp/bad.html"
chrome "$tmp/bad.out" "$tmp/bad.err" --dump-dom "file://$tmp/bad.html"
console_errors "$tmp/bad.err" > /dev/null || fail "negative control: a page with a script error produced no console error line"

# 1. the report itself: no console errors, a non-trivial screenshot.
chrome "$tmp/shot.out" "$tmp/shot.err" --window-size=1200,2400 --screenshot="$tmp/shot.png" "file://$html"
if console_errors "$tmp/shot.err"; then fail "console errors while loading the report"; fi
[ -f "$tmp/shot.png" ] || fail "no screenshot"
size=$(stat -c %s "$tmp/shot.png")
[ "$size" -gt 20000 ] || fail "screenshot is suspiciously small ($size bytes)"

# 2. the SVG plots render: a probe copy measures every plot's bounding box in the browser.
nplots=$(grep -c '<svg xmlns' "$html")
[ "$nplots" -ge 1 ] || fail "the report has no SVG plot"
sed 's|</body>|<script>const s=[...document.querySelectorAll("svg.plot")];const ok=s.filter(e=>{const b=e.getBBox();const r=e.getBoundingClientRect();return b.width>50\&\&b.height>50\&\&r.width>0\&\&e.querySelectorAll("polyline,polygon,line,rect,circle").length>3;});const p=document.createElement("pre");p.id="probe";p.textContent="svg-rendered "+ok.length+"/"+s.length;document.body.appendChild(p);</script></body>|' "$html" > "$tmp/probe.html"
chrome "$tmp/dom.out" "$tmp/dom.err" --dump-dom "file://$tmp/probe.html"
grep -q "svg-rendered $nplots/$nplots" "$tmp/dom.out" || { grep -o 'svg-rendered [0-9/]*' "$tmp/dom.out"; fail "not every SVG plot rendered"; }
echo "PASS: $nplots plots rendered, screenshot $size bytes, no console errors"
