# The figure of make bench (tools/bench/bench.sh), from its data files:
#   gnuplot -e "res='RESULTS_DIR'; out='FILE.png'; sub='machine'" plot.gp
# cost.dat:   function ns/value x_clock_timestamp x_gen_random_uuid
# insert.dat: key phase1_ms phase2_ms total_ms wal_MB pk_index_MB create_index_MB
# Left: cost per value (log scale: uuid-ossp's v1 is ~60x the rest).
# Right: primary-key inserts, time of both loads and index sizes.

if (!exists("sub")) sub = ""
if (!exists("rows")) rows = "N"
if (!exists("ins_rows")) ins_rows = "N"
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,600 font "sans,10"
} else {
    set terminal png size 1400,600
}
set termoption noenhanced
set output out
set multiplot layout 1,2 title "make bench: medians (".sub.")"
set style fill solid 0.85 border -1
set grid ytics
set key below
set xtics rotate by -25 nomirror
set ytics nomirror

set title "Cost per value: SELECT count(F()) FROM generate_series(1, ".rows.")"
set ylabel "ns per value"
set logscale y
set yrange [*:*]
set boxwidth 0.6
plot res."/cost.dat" using 0:2:xtic(stringcolumn(1)."()") with boxes lc rgb "#4477aa" notitle, \
     "" using 0:2:(sprintf("%.0f", $2)) with labels offset 0,0.8 notitle

unset logscale y
set title "Primary-key inserts: ".ins_rows." rows into an empty table, then ".ins_rows." more"
set ylabel "seconds (both loads)"
set y2label "index size, MB"
set y2tics
set yrange [0:*]
set y2range [0:*]
set boxwidth 0.25
set offsets 0.5, 0.5, 0, 0
plot res."/insert.dat" using ($0 - 0.27):($4 / 1000):xtic(1) with boxes lc rgb "#4477aa" title "time (left axis)", \
     "" using ($0 - 0.27):($4 / 1000):(sprintf("%.1f s", $4 / 1000)) with labels offset 0,0.8 notitle, \
     "" using 0:6 axes x1y2 with boxes lc rgb "#ee6677" title "pk index, built by the inserts (right axis)", \
     "" using 0:6:(sprintf("%.0f", $6)) axes x1y2 with labels offset 0,0.8 notitle, \
     "" using ($0 + 0.27):7 axes x1y2 with boxes lc rgb "#ccbb44" title "same keys, CREATE INDEX (right axis)", \
     "" using ($0 + 0.27):7:(sprintf("%.0f", $7)) axes x1y2 with labels offset 0,0.8 notitle
unset multiplot
