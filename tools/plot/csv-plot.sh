#!/usr/bin/env bash
# Draws probe columns of an `impetus-sim run --csv` file as an SVG line plot (no dependencies
# beyond awk), for the documents.
#   csv-plot.sh IN.csv OUT.svg FROM TO SCALE UNIT "TITLE" COLUMN[=LABEL] ...
# FROM, TO: the time window (s), drawn in milliseconds from FROM; SCALE multiplies the values
# (0.001 turns N into kN) and UNIT names the scaled unit on the y axis.
set -euo pipefail
if [ $# -lt 8 ]; then
  sed -n '2,7p' "$0" >&2
  exit 1
fi
in=$1 out=$2 from=$3 to=$4 scale=$5 unit=$6 title=$7
shift 7
awk -F, -v from="$from" -v to="$to" -v scale="$scale" -v unit="$unit" -v title="$title" \
    -v wanted="$(printf '%s\t' "$@")" '
BEGIN {
  n = split(wanted, spec, "\t") - 1  # the list ends in a tab
  for (k = 1; k <= n; ++k) {
    split(spec[k], part, "=")
    name[k] = part[1]; label[k] = (part[2] != "" ? part[2] : part[1])
  }
  split("#1f4e9c #c2410c #15803d #7e22ce", colour, " ")
  W = 720; H = 360; L = 70; R = 20; T = 40; B = 50
}
NR == 1 {
  for (c = 1; c <= NF; ++c) column[$c] = c
  for (k = 1; k <= n; ++k)
    if (!(name[k] in column)) { print "csv-plot: no column " name[k] > "/dev/stderr"; exit 1 }
  next
}
$1 >= from && $1 <= to {
  ++rows; t[rows] = ($1 - from) * 1000
  for (k = 1; k <= n; ++k) {
    v = $(column[name[k]]) * scale; y[k, rows] = v
    if (rows == 1 && k == 1) { lo = v; hi = v }
    if (v < lo) lo = v; if (v > hi) hi = v
  }
}
END {
  if (rows < 2) { print "csv-plot: fewer than two rows in the window" > "/dev/stderr"; exit 1 }
  if (lo > 0) lo = 0; if (hi < 0) hi = 0
  step = 10 ^ int(log((hi - lo) / 4) / log(10)); while ((hi - lo) / step > 8) step *= 2
  lo = step * int(lo / step - (lo < 0 ? 0.999999 : 0)); hi = step * int(hi / step + 0.999999)
  span = (to - from) * 1000
  printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H
  printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H
  printf "<text x=\"%d\" y=\"22\" font-size=\"14\">%s</text>\n", L, title
  for (v = lo; v <= hi + step / 2; v += step) {
    py = T + (H - T - B) * (hi - v) / (hi - lo)
    printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", L, W - R, py, py
    printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, py + 4, v
  }
  xstep = 10 ^ int(log(span / 4) / log(10)); while (span / xstep > 10) xstep *= 2
  for (v = 0; v <= span + xstep / 1000; v += xstep) {
    px = L + (W - L - R) * v / span
    printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>", px, px, T, H - B
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", px, H - B + 16, v
  }
  printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time from %g s (ms)</text>\n", (L + W - R) / 2, H - 12, from
  printf "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">%s</text>\n", (T + H - B) / 2, (T + H - B) / 2, unit
  for (k = 1; k <= n; ++k) {
    printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" points=\"", colour[(k - 1) % 4 + 1]
    for (i = 1; i <= rows; ++i)
      printf "%.1f,%.1f ", L + (W - L - R) * t[i] / span, T + (H - T - B) * (hi - y[k, i]) / (hi - lo)
    printf "\"/>\n"
    printf "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n", W - R - 200, T + 16 * k, colour[(k - 1) % 4 + 1], label[k]
  }
  print "</svg>"
}' "$in" > "$out"
