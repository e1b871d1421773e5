# "retest 4x" of a benchmark whose learned noise is high (issue 32 item
# 5): the first look is what that noise calls for, not the 4 asked for:
# the farm is asked for the cap (limits.max_runs, 20) a side at once, and
# the acknowledgement says so. (The noise is planted as earlier retests
# and confirmations leave it: CV 6% on 40 degrees of freedom.)
. tests/integration/confirm-lib.sh
B=b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1
H=b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2
retest_spool rn-1 "1000 1020 980" "1050 1070 1030"
sql "INSERT INTO noise (testcase, machine, metric, cv, df, updated) VALUES ('hackbench', 'lkp-icl-2sp2', 'hackbench.throughput', 0.06, 40, 1739548080)"
retest_ask rn1 "retest 4x"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "retest queued" [ "$(sql "SELECT status || ' ' || runs FROM requests WHERE kind = 'retest'")" = "queued 20" ]
check "the farm asked for 20 a side" [ "$(cat "$W/spool"/* | grep -h '^runs:' | sort -u)" = "runs: 20" ]
check "its plan keeps the first look" [ "$(sql_json "SELECT thread FROM requests WHERE kind = 'retest'" retest.first)" = 20 ]
set -- $(search alice In-Reply-To rn1@example.test)
fetch_matching alice "$W/ack.eml" "I queued 20 more runs" "$@"
"$MAILCHECK" "$W/ack.eml" >/dev/null 2>"$W/ack.body"
check "the ack says why more than asked" grep -q "^You asked for 4; this benchmark's past noise on this machine calls for 20\$" "$W/ack.body"
check "and that the noise is learned" grep -q "^(The noise assumed is what this benchmark's past runs showed on this machine\.)\$" "$W/ack.body"
