# A sequential retest whose next look the farm does not take (issue 32):
# it is answered at once as it stands, "inconclusive", saying so, with
# the interval, instead of waiting for runs that will not come.
. tests/integration/confirm-lib.sh
B=abababababababababababababababababababab
H=acacacacacacacacacacacacacacacacacacacac
retest_spool rr-1 "1000 1020 980" "1050 1070 1030"
retest_ask rr1 "retest 4x"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "retest queued" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = queued ]
# 4 runs a side that do not decide; then the farm refuses everything
confirm_roots "$W/roots" $B $H "1000 1020 980 1000 1020 980 1010" "1050 1070 1030 1040 1030 1045 1035"
sed -i "s#^  backend: spool#  backend: exec\n  argv: [\"/bin/false\"]#" "$CONFIG"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "answered at once" [ "$(sql "SELECT status || ' ' || verdict FROM requests WHERE kind = 'retest'")" = "done inconclusive" ]
check "logged" grep -q "the next look was not taken" "$W/e2"
set -- $(search alice In-Reply-To rr1@example.test)
fetch_matching alice "$W/fu.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/fu.eml" >/dev/null 2>"$W/fu.body"
check "inconclusive" grep -q "^Verdict: inconclusive\.\$" "$W/fu.body"
check "the farm did not take more runs" grep -q "^This is not clear: the farm did not take more runs, and p = [0-9.]* on 4 runs a side is\$" "$W/fu.body"
check "with the interval" grep -q "^The change is between [-+][0-9.]*% and [-+][0-9.]*% (98% confidence)\.\$" "$W/fu.body"
