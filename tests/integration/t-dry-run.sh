# --dry-run prints every mail it would send and changes nothing.
make_manifest d-1 000
make_manifest d-2 004
"$PERFBOT" run --dry-run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "exit 0" [ $? = 0 ]
check "two mbox entries" [ "$(grep -c '^From perfbot@example.test ' "$W/out")" = 2 ]
check "no state created" [ ! -e "$W/state.db" ]
check "nothing sent" [ "$(count alice X-Perfbot-Report d-1)" = 0 ]
check "no password in output" sh -c "! grep -q perfbot-pw '$W/out' '$W/err'"
