# Issue 21 item 1: 'perfbot requeue ID|--failed' and 'perfbot drop ID', each
# recorded and shown by 'perfbot status'; 'status' says 'never' for a time
# that never came.
F=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$F"
fx_setup "$PORT"
make_manifest q-1
make_manifest q-2
printf 'eod 554 5.7.1 policy says no\n' >"$F/script"
"$PERFBOT" run --config "$CONFIG" 2>"$W/err"
check "both failed" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'failed'")" = 2 ]
"$PERFBOT" requeue q-1 --failed --config "$CONFIG" 2>"$W/err"
check "ID and --failed together: usage (64)" [ $? = 64 ]
"$PERFBOT" requeue nope --config "$CONFIG" 2>"$W/err"
check "unknown ID: exit 66" [ $? = 66 ]
: >"$F/script"
"$PERFBOT" requeue q-1 --config "$CONFIG" >"$W/out" 2>"$W/err"
check "requeue q-1: exit 0" [ $? = 0 ]
check "requeue q-1: queued again" [ "$(sql "SELECT status || ' ' || attempts || ' ' || next_attempt FROM outbox WHERE id = 'q-1'")" = "queued 0 0" ]
"$PERFBOT" drop q-2 --config "$CONFIG" >"$W/out" 2>"$W/err"
check "drop q-2: exit 0" [ $? = 0 ]
check "drop q-2: dropped" [ "$(sql "SELECT status FROM outbox WHERE id = 'q-2'")" = dropped ]
"$PERFBOT" status --config "$CONFIG" >"$W/status" 2>&1
check "status: next attempt 'never'" grep -q "next_attempt: never tried, due now" "$W/status"
check "status: the dropped mail" grep -q "^dropped: 1" "$W/status"
check "status: both actions, by whom" [ "$(grep -cE "action: (requeued|dropped), detail: was failed: 554 5.7.1 policy says no, by: $(id -un)" "$W/status")" = 2 ]
check "status: never '0'" sh -c "! grep -q 'next_attempt: 0' '$W/status'"
"$PERFBOT" status --json --config "$CONFIG" >"$W/status.json"
check "status --json: actions" python3 -c "import json,sys; d=json.load(open('$W/status.json')); sys.exit(not (len(d['actions']) == 2 and d['outbox']['dropped'] == 1))"
"$PERFBOT" run --config "$CONFIG" 2>"$W/err"
check "the requeued one is sent" [ "$(sql "SELECT status FROM outbox WHERE id = 'q-1'")" = sent ]
check "the dropped one is not" [ "$(sql "SELECT status FROM outbox WHERE id = 'q-2'")" = dropped ]
"$PERFBOT" requeue q-1 --config "$CONFIG" 2>"$W/err"
check "a sent one is refused: 65" [ $? = 65 ]
"$PERFBOT" requeue --failed --config "$CONFIG" >"$W/out" 2>"$W/err"
check "--failed with none failed: 0" [ $? = 0 ]
"$PERFBOT" requeue q-2 --config "$CONFIG" >"$W/out" 2>"$W/err"
"$PERFBOT" send --config "$CONFIG" 2>"$W/err"
check "a dropped one requeued is sent" [ "$(sql "SELECT status FROM outbox WHERE id = 'q-2'")" = sent ]
