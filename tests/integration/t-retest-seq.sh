# "retest 4x" is sequential (issue 32): the acknowledgement says that 4
# runs a side may not decide and how many perfbot may add; 4 new runs
# that do not decide make perfbot ask the farm for the next look by
# itself (a request of its own id, 6 runs a side in all), no answer yet;
# once they land, the answer says how many runs decided it.
. tests/integration/confirm-lib.sh
B=a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9
H=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
# a 5% change at CV 2%
retest_spool rs-1 "1000 1020 980" "1050 1070 1030"
retest_ask rs1 "retest 4x"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "retest queued" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = queued ]
set -- $(search alice In-Reply-To rs1@example.test)
fetch_matching alice "$W/ack.eml" "I queued 4 more runs" "$@"
"$MAILCHECK" "$W/ack.eml" >/dev/null 2>"$W/ack.body"
check "the ack says 4 may not decide" grep -q "^4 runs a side may not decide a +3.8% change at this noise (CV 2.0%); I will\$" "$W/ack.body"
check "and how many it may add" grep -q "^add up to 12 more a side if they do not\.\$" "$W/ack.body"
first=$(sql "SELECT request_id FROM requests WHERE kind = 'retest'")
# the farm: 4 runs a side that do not decide
confirm_roots "$W/roots" $B $H "1000 1020 980 1000 1020 980 1010" "1050 1070 1030 1040 1030 1045 1035"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "still open, asking for the next look" [ "$(sql "SELECT status || ' ' || runs FROM requests WHERE kind = 'retest'")" = "queued 6" ]
check "under the look's own id" [ "$(sql "SELECT request_id FROM requests WHERE kind = 'retest'")" = "$first-6" ]
check "one request" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest'")" = 1 ]
check "the farm asked for 2 more a side" [ "$(grep -l "request_id: \"$first-6\"" "$W/spool"/* | xargs grep -h '^runs:' | sort -u)" = "runs: 2" ]
check "no answer yet" [ "$(search alice In-Reply-To rs1@example.test | wc -w)" = 1 ]
check "logged" grep -q "undecided at 4 new runs a side, asking for 6 in all" "$W/e2"
check "counted as waiting, not answered" grep -q "retests: 0 answered, 0 expired, 1 waiting$" "$W/e2"
# a run killed after the look was recorded and before the farm was
# asked leaves it 'asking' with nothing in the spool: the next run asks
# the farm again under the same id, and the look goes on
rm -f $(grep -l "request_id: \"$first-6\"" "$W/spool"/*)
sql "UPDATE requests SET status = 'asking' WHERE kind = 'retest'" >/dev/null
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2b"
check "after a crash: the look asked again" [ "$(grep -l "request_id: \"$first-6\"" "$W/spool"/* | xargs grep -h '^runs:' | sort | uniq -c | awk '{print $1, $2, $3}')" = "2 runs: 2" ]
check "after a crash: queued under the same id" [ "$(sql "SELECT request_id || ' ' || status || ' ' || runs FROM requests WHERE kind = 'retest'")" = "$first-6 queued 6" ]
check "after a crash: no answer yet" [ "$(search alice In-Reply-To rs1@example.test | wc -w)" = 1 ]
# the next look's runs land
confirm_roots "$W/roots" $B $H "1000 1020 980 1000 1020 980 1010 990 1005" "1050 1070 1030 1040 1030 1045 1035 1040 1045"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "retest done" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = done ]
set -- $(search alice In-Reply-To rs1@example.test)
fetch_matching alice "$W/fu.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/fu.eml" >/dev/null 2>"$W/fu.body"
check "a verdict" grep -q "^Verdict: stable\.\$" "$W/fu.body"
check "decided on 6 runs a side" grep -q "^The verdict is decided on the 6 new runs of the commit and 6 of the parent\$" "$W/fu.body"
check "says it added runs" grep -q "^You asked for 4 runs a side; they did not decide, so I added 2 more\.\$" "$W/fu.body"
check "an early stop" grep -q "an early stop (up to " "$W/fu.body"
# the new runs' noise is learned (issue 32 item 5): testcase, machine and
# metric, the pooled CV of the 6 + 6 runs on 10 degrees of freedom ...
check "the noise is learned" [ "$(sql "SELECT testcase || ' ' || machine || ' ' || metric || ' ' || df FROM noise")" = "hackbench lkp-icl-2sp2 hackbench.throughput 10" ]
"$PERFBOT" show rs-1 --config "$CONFIG" >"$W/show" 2>"$W/e-show"
check "perfbot show: the noise learned" grep -q "^  hackbench on lkp-icl-2sp2: CV [0-9.]*% on 10 degrees of freedom\$" "$W/show"
# ... and the next retest's design uses it, at half the alpha
retest_ask rs2 "retest 4x"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
set -- $(search alice In-Reply-To rs2@example.test)
fetch_matching alice "$W/ack2.eml" "I queued 4 more runs" "$@"
"$MAILCHECK" "$W/ack2.eml" >/dev/null 2>"$W/ack2.body"
check "the second ack says the noise is learned" grep -q "^(The noise assumed is what this benchmark's past runs showed on this machine\.)\$" "$W/ack2.body"
check "its plan: one earlier retest" [ "$(sql_json "SELECT thread FROM requests WHERE kind = 'retest' AND status = 'queued'" retest.earlier)" = 1 ]
