# A retest's verdict comes from the new runs alone: the report's runs
# differ, the 4 new runs of each commit are the same, so the follow-up
# says "not reproduced" although all runs together still differ.
. tests/integration/confirm-lib.sh
B=a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7
H=a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8
retest_spool rf-1 "1000 1004 996" "1100 1096 1104"
retest_ask rf1 "retest 4x"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "retest queued" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = queued ]
# the farm: 4 more runs, the same for both commits
confirm_roots "$W/roots" $B $H "1000 1004 996 1050 1047 1053 1051" "1100 1096 1104 1050 1047 1053 1051"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "retest done" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = done ]
set -- $(search alice In-Reply-To rf1@example.test)
fetch_matching alice "$W/rf.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/rf.eml" >/dev/null 2>"$W/rf.body"
check "not reproduced on the new runs" grep -q "^Verdict: not reproduced\.$" "$W/rf.body"
check "no change on them" grep -q "changed by +0.0% (the report said" "$W/rf.body"
check "all runs still differ" grep -q "all runs together: +[1-9]" "$W/rf.body"
check "the futility bound decided" grep -q "^The change did not reproduce: p = [0-9.]* on 4 runs a side, above the bound of" "$W/rf.body"
