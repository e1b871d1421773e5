# Confirmation before mailing when the runs never land: after
# confirm.deadline the report is mailed marked unconfirmed (the default
# policy), once.
. tests/integration/confirm-lib.sh
B=f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1
H=f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2
confirm_roots "$W/roots" $B $H "1000 1012 990" "1100 1088 1113"
confirm_manifest cf-late "$W/roots" $B $H
mkdir -p "$W/spool"
cat >>"$CONFIG" <<EOC
confirm: {enabled: true, deadline: 600}
scheduler:
  backend: spool
  spool_dir: $W/spool
EOC
now=$(date +%s)
SOURCE_DATE_EPOCH=$now "$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
SOURCE_DATE_EPOCH=$((now + 300)) "$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "still waiting before the deadline" [ "$(sql "SELECT status FROM requests WHERE kind = 'confirm' AND report_id = 'cf-late'")" = queued ]
SOURCE_DATE_EPOCH=$((now + 700)) "$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "unconfirmed after it" [ "$(sql "SELECT status || ': ' || verdict FROM requests WHERE kind = 'confirm' AND report_id = 'cf-late'")" = "expired: unconfirmed" ]
SOURCE_DATE_EPOCH=$((now + 800)) "$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
set -- $(search alice Subject "f2f2f2f2f2")
check "mailed once" [ $# = 1 ]
fetch_matching alice "$W/late.eml" "^unconfirmed:" "$@"
"$MAILCHECK" "$W/late.eml" >/dev/null 2>"$W/late.body"
check "marked unconfirmed" grep -q "^unconfirmed: the 3 confirmation runs a side did not land in time$" "$W/late.body"
