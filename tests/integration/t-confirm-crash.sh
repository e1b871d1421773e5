# Confirmation before mailing across a crash: perfbot is killed (-9)
# while it asks the farm for the confirmation runs, after the farm took
# the first request and before perfbot recorded it. The next runs neither
# lose the report nor have the farm run anything twice, and it is mailed
# once.
. tests/integration/confirm-lib.sh
B=e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1
H=e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2
confirm_roots "$W/roots" $B $H "1000 1012 990" "1100 1088 1113"
confirm_manifest cf-crash "$W/roots" $B $H
killing_farm "$W/farm"
cat >>"$CONFIG" <<EOC
confirm: {enabled: true}
scheduler:
  backend: exec
  argv: ["$W/farm", "{result_root}", "{commit}", "{runs}", "{request_id}"]
  timeout: 60
EOC
# (the subshell's own stderr takes the shell's "Killed" notice)
( "$PERFBOT" run --config "$CONFIG" 2>"$W/e0"; echo $? >"$W/rc0" ) 2>/dev/null
rc=$(cat "$W/rc0")
check "killed while asking (exit $rc)" [ $rc = 137 ]
check "the hold survived the crash" [ "$(sql "SELECT status FROM requests WHERE kind = 'confirm' AND report_id = 'cf-crash'")" = asking ]
check "the base's runs landed once" [ "$(wc -l <"$W/roots/base/.fake-lkp-requests")" = 1 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "asked again after the crash" [ "$(sql "SELECT status FROM requests WHERE kind = 'confirm' AND report_id = 'cf-crash'")" = queued ]
nb=$("$PERFBOT" compare "$W/roots/base" "$W/roots/head" --json | sed -n 's/^ *"base_runs": \([0-9]*\),/\1/p')
nh=$("$PERFBOT" compare "$W/roots/base" "$W/roots/head" --json | sed -n 's/^ *"head_runs": \([0-9]*\),/\1/p')
check "the farm ran each request once ($nb, $nh runs)" [ "$nb" = 6 -a "$nh" = 6 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "confirmed" [ "$(sql "SELECT status || ': ' || verdict FROM requests WHERE kind = 'confirm' AND report_id = 'cf-crash'")" = "done: confirmed" ]
set -- $(search alice Subject "e2e2e2e2e2")
check "mailed once" [ $# = 1 ]
