#!/usr/bin/env bash
# The pages of a `flowcert certify` run over a few fast cases (every plot kind: tube, sweep,
# circle, heat map):
#  - every plot of every case page, drawn in headless Chromium, has an x and a y axis label and at
#    least one drawn series (a negative control without labels or data must be caught);
#  - the index is grouped paper -> theorem -> cases, has verdict counts at the top, shows no long
#    numbers (the exact values stay in the case pages), links to every case page, which links back;
#  - progress goes to stderr (a counter, elapsed time and an estimate per finished case, and the
#    per-paper roll-up), not to stdout and not into the certificates.
#   report_pages_test.sh FLOWCERT VERIFIERS_DIR CASES_ROOT
set -uo pipefail
flowcert=$1 verifiers=$2 cases_root=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v chromium > /dev/null || fail "chromium is not installed (scripts/install-deps installs it)"
command -v perl > /dev/null || fail "perl is not installed"

cases="demo/sqrt2_certified demo/sqrt2_false_bound bf/extremal_vectors_figure2 bf/lemma1_tolerance_too_small
       kh/ncf_kkt_figure1_small kh/theorem4_example1 rh/gap_sweep_fast"
for c in $cases; do
    mkdir -p "$tmp/cases/$(dirname "$c")"
    cp "$cases_root/$c.toml" "$tmp/cases/$c.toml" || fail "no case $c"
done
n=$(echo $cases | wc -w)
cd "$tmp" || exit 1
"$flowcert" certify --cases cases --out reports --verifiers "$verifiers" --jobs 2 > out 2> err; rc=$?
cat out err
[ "$rc" -eq 0 ] || fail "certify exited $rc"

# progress: stderr only, never in a certificate
[ "$(grep -cE '^\[[0-9]+/'"$n"', [0-9.]+ s elapsed' err)" -eq "$n" ] || fail "not one progress line per case on stderr"
grep -qE '^\[1/'"$n"', .* elapsed, about .* left\] ' err || fail "the first progress line has no estimate of the time left"
grep -q '^by paper:' err && grep -qE '^  kh +2 cases, +2 as expected' err || fail "no per-paper roll-up on stderr"
grep -q 'elapsed' out && fail "progress lines on stdout"
grep -l 'elapsed\|still running' reports/*/*.json && fail "progress text in a certificate"

# the index: grouped, counted, short, linked both ways
idx=reports/index.html
grep -q "<p class=\"counts\" id=\"counts\">$n cases: " $idx || fail "no verdict counts at the top of the index"
[ "$(grep -c '<section class="paper"' $idx)" -eq 4 ] || fail "the index does not have one section per paper"
[ "$(grep -c '<h3 id="verifier-' $idx)" -eq 6 ] || fail "the index does not have one heading per theorem (verifier)"
[ "$(grep -c '<tr class="case"' $idx)" -eq "$n" ] || fail "index.html does not have one row per case"
# no number with more than 17 significant digits (the 40-digit enclosure endpoints stay in the
# case pages; a sentence keeps as many digits as tell its numbers apart) outside the provenance line
long=$(grep -v '^<p class="muted">flowcert ' $idx | grep -oE '[0-9]\.?[0-9]{17,}' | head -3)
[ -z "$long" ] || fail "long numbers in the index: $long"
for c in $cases; do
    grep -q "href=\"$c.html\"" $idx || fail "the index does not link to $c.html"
    back=$(grep -o 'id="index-link" href="[^"]*"' "reports/$c.html") || fail "$c.html has no link back to the index"
    [ "$back" = "id=\"index-link\" href=\"../index.html#$c\"" ] || fail "$c.html links back to the wrong place: $back"
    grep -q "id=\"$c\"" $idx || fail "the index has no anchor for $c"
done
# a case page starts with its summary, then the checks by role
page=reports/kh/theorem4_example1.html
awk '/id="summary"/{s=NR} /id="checks"/{c=NR} /id="details"/{d=NR} END{exit !(s && c && d && s < c && c < d)}' $page \
    || fail "the case page is not summary, checks, details in that order"
grep -q 'id="role-conclusion"' $page || fail "the case page has no conclusion section"

# every plot in Chromium: labelled axes and a drawn series
{
    echo '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
    for c in $cases; do perl -0777 -ne 'print "$1\n" while /(<svg xmlns.*?<\/svg>)/gs' "reports/$c.html"; done
    # negative control: a plot without axis labels and without data
    echo '<svg xmlns="http://www.w3.org/2000/svg" class="plot" width="300" height="200"><text class="title" x="10" y="20">control</text><text class="axis-label x" x="10" y="190"></text><rect x="0" y="0" width="300" height="200" fill="none" stroke="#444"/></svg>'
    cat << 'EOF'
<script>
const bad = [], plots = [...document.querySelectorAll("svg.plot")];
for (const s of plots) {
  const t = (s.querySelector(".title") || {textContent: "?"}).textContent;
  const label = a => [...s.querySelectorAll(".axis-label." + a)].some(e => e.textContent.trim() && e.getBBox().width > 0);
  const drawn = [...s.querySelectorAll(".band,.line,.marker,.errorbar,.reference,.direction,.cell")]
    .some(e => { const b = e.getBBox(); return b.width > 0 || b.height > 0; });
  const why = [!label("x") && "no x label", !label("y") && "no y label", !drawn && "no drawn series"].filter(Boolean);
  if (why.length) bad.push(t + ": " + why.join(", "));
}
const p = document.createElement("pre"); p.id = "probe";
p.textContent = "plots " + plots.length + "\n" + bad.map(b => "BAD " + b).join("\n");
document.body.appendChild(p);
</script></body></html>
EOF
} > plots.html
nplots=$(grep -o '<svg xmlns' plots.html | wc -l)
[ "$nplots" -ge 10 ] || fail "only $nplots plots in the pages"
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$tmp/chrome" --dump-dom "file://$tmp/plots.html" > dom 2> /dev/null
grep -q "id=\"probe\">plots $nplots\$" dom || fail "the probe did not run in Chromium"
grep '^BAD ' dom >&2
[ "$(grep -c '^BAD ' dom)" -eq 1 ] && grep -q '^BAD control: no x label, no y label, no drawn series' dom \
    || fail "a plot lacks axis labels or a drawn series (or the negative control was not caught)"
echo "PASS: $n cases, $((nplots - 1)) plots with labelled axes and drawn series, index grouped and short"
