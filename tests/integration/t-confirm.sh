# Confirmation before mailing: a change seen on 3 runs a side is held,
# the fake farm (scripts/fake-lkp-run) adds the first look's runs (3 a
# side: the sequential rule, where the fixed one asked for 13), a clear
# change is decided there, and the next cycle mails the report once,
# saying it was confirmed and by how many runs.
. tests/integration/confirm-lib.sh
B=c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1
H=c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2
confirm_roots "$W/roots" $B $H "1000 1012 990" "1100 1088 1113"
confirm_manifest cf-1 "$W/roots" $B $H
cat >>"$CONFIG" <<EOC
confirm: {enabled: true}
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}"]
  timeout: 60
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "first run exits 0" [ $? = 0 ]
check "held, asked ($(sql "SELECT status FROM requests WHERE kind = 'confirm'"))" [ "$(sql "SELECT status FROM requests WHERE kind = 'confirm' AND report_id = 'cf-1'")" = queued ]
check "nothing queued while held" [ "$(sql "SELECT count(*) FROM outbox WHERE id = 'cf-1'")" = 0 ]
runs=$(sql "SELECT runs FROM requests WHERE kind = 'confirm' AND report_id = 'cf-1'")
check "the first look: 6 runs a side in all ($runs asked)" [ "$runs" = 3 ]
n=$("$PERFBOT" compare "$W/roots/base" "$W/roots/head" --json | sed -n 's/^ *"head_runs": \([0-9]*\),/\1/p')
check "the farm added them ($n)" [ "$n" = 6 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "second run exits 0" [ $? = 0 ]
check "confirmed" [ "$(sql "SELECT status || ': ' || verdict FROM requests WHERE kind = 'confirm' AND report_id = 'cf-1'")" = "done: confirmed" ]
check "sent once" [ "$(sql "SELECT count(*) FROM outbox WHERE id = 'cf-1' AND status = 'sent'")" = 1 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
set -- $(search alice Subject "c2c2c2c2c2")
check "one report in the author's mailbox" [ $# = 1 ]
fetch_matching alice "$W/cf.eml" "^confirmed by" "$@"
"$MAILCHECK" "$W/cf.eml" >/dev/null 2>"$W/cf.body"
check "the confirmation lines" sh -c "tr '\n' ' ' <'$W/cf.body' | tr -s ' ' | grep -q \"confirmed by 3 more runs of the parent and 3 of the commit: over all 6 and 6 runs hackbench.throughput changed by +[0-9.]*%, Welch's t-test p = [0-9.e-]*, beyond the sequential bound\""
check "the confirmation lines within 80 columns" sh -c "sed -n '/^confirmed by/,/^\$/p' '$W/cf.body' | awk 'length > 80 { bad = 1 } END { exit bad }'"
check "the evidence line over all runs" grep -q "^evidence: 6 runs per side, Welch's t-test p = " "$W/cf.body"
check "no more requests" [ "$(wc -l <"$W/roots/head/.fake-lkp-requests")" = 1 ]
