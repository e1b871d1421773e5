# Confirmation before mailing, a change that is not there: 3 runs a side
# look different, the report is held, the farm's new runs show no
# difference, and the report is never mailed; its outcome is recorded.
. tests/integration/confirm-lib.sh
B=d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1
H=d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2
confirm_roots "$W/roots" $B $H "1000 1004 996" "1030 1026 1034"
confirm_manifest cf-null "$W/roots" $B $H
mkdir -p "$W/spool"
cat >>"$CONFIG" <<EOC
confirm: {enabled: true, on_deadline: drop}
scheduler:
  backend: spool
  spool_dir: $W/spool
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "first run exits 0" [ $? = 0 ]
check "held" [ "$(sql "SELECT status FROM requests WHERE kind = 'confirm' AND report_id = 'cf-null'")" = queued ]
check "a request per commit in the spool" [ "$(ls "$W/spool" | wc -l)" = 2 ]
# the farm: 13 more runs a side (more than the first look's 3), the same
# on both commits: decided at the last look over all 16
new="1011 1017 1003 1020 1008 1014 1005 1019 1010 1002 1016 1009 1013"
confirm_roots "$W/roots" $B $H "1000 1004 996 $new" "1030 1026 1034 $new"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "second run exits 0" [ $? = 0 ]
check "not reproduced" [ "$(sql "SELECT status || ': ' || verdict FROM requests WHERE kind = 'confirm' AND report_id = 'cf-null'")" = "done: not reproduced" ]
check "recorded with the reason" sql_pipe "SELECT detail FROM requests WHERE kind = 'confirm'" "grep -q '^not reproduced by 13 more runs'"
check "visible in the manifests" [ "$(sql "SELECT outcome FROM manifests WHERE id = 'cf-null'")" = "not reproduced" ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "never queued" [ "$(sql "SELECT count(*) FROM outbox WHERE id = 'cf-null'")" = 0 ]
check "never mailed" [ -z "$(search alice Subject d2d2d2d2d2)" ]
