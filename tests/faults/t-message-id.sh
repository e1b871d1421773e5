# Issue 25 item 14: Message-IDs of 64 hashed bits; one the state already
# holds is drawn again, reproducibly with SOURCE_DATE_EPOCH, instead of
# stopping the run with "UNIQUE constraint failed".
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
fx_setup "$PORT"
export SOURCE_DATE_EPOCH=1739548080
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
make_manifest c-1
"$PERFBOT" run --dry-run --config "$CONFIG" >"$W/mbox" 2>"$W/err"
mid=$(sed -n 's/^Message-I[dD]: <\(.*\)>$/\1/p' "$W/mbox" | head -n 1)
check "64 bits of hash in the Message-ID" sh -c "echo '$mid' | grep -Eq '^[0-9]{12}\.[0-9a-f]{16}-perfbot@example.test$'"
sql "INSERT INTO outbox (id, kind, message_id, sender, recipients, message, created, status) VALUES ('other', 'report', '$mid', 'p@example.test', '[]', 'x', 1, 'sent')"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "a colliding Message-ID: the run goes on (exit $rc)" [ $rc = 0 ]
got=$(sql "SELECT message_id FROM outbox WHERE id = 'c-1'")
check "drawn again: another Message-ID" sh -c "[ -n '$got' ] && [ '$got' != '$mid' ]"
check "and sent" [ "$(sql "SELECT status FROM outbox WHERE id = 'c-1'")" = sent ]
sql "DELETE FROM outbox_recipients; DELETE FROM outbox WHERE id = 'c-1'; DELETE FROM manifests"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "drawn again reproducibly" [ "$(sql "SELECT message_id FROM outbox WHERE id = 'c-1'")" = "$got" ]
unset SOURCE_DATE_EPOCH
