# A wrong password is one clear error; nothing is marked sent.
make_manifest w-1 004
PERFBOT_SMTP_PASSWORD=not-the-password "$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "exit 77 (got $rc)" [ $rc = 77 ]
check "clear error" grep -Eq "^([0-9TZ:-]+ )?perfbot: smtp(\.user)?: " "$W/err"
check "secret not echoed" sh -c "! grep -q not-the-password '$W/err' '$W/out'"
check "still queued" [ "$(sql "SELECT status FROM outbox WHERE id = 'w-1'")" = queued ]
check "no attempt burnt" [ "$(sql "SELECT attempts FROM outbox WHERE id = 'w-1'")" = 0 ]
check "nothing delivered" [ "$(count alice X-Perfbot-Report w-1)" = 0 ]
"$PERFBOT" send --config "$CONFIG" 2>"$W/err2"
check "right password sends it" [ "$(count alice X-Perfbot-Report w-1)" = 1 ]
