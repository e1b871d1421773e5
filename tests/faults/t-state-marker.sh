# Issue 25 item 15: a state that was in use and is then truncated to 0
# bytes or deleted is not silently made anew (its marker beside it says it
# was in use); 'status' never writes: no -wal or -shm made.
sqlite_only "the marker, -wal and -shm are files beside SQLite's" || return 0
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
fx_setup "$PORT"
make_manifest t-1
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "sent once" [ "$(wc -l <"$S/accepted")" = 1 ]
check "the marker beside the state" [ -f "$W/.state.db.in-use" ]
rm -f "$W/state.db-wal" "$W/state.db-shm"
"$PERFBOT" status --config "$CONFIG" >"$W/status" 2>"$W/err"
check "status: exit 0" [ $? = 0 ]
check "status: reads the state" grep -q "1 sent" "$W/status"
check "status: no -wal or -shm made" sh -c "[ ! -e '$W/state.db-wal' ] && [ ! -e '$W/state.db-shm' ]"
"$PERFBOT" run --dry-run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "run --dry-run: no -wal or -shm made" sh -c "[ ! -e '$W/state.db-wal' ] && [ ! -e '$W/state.db-shm' ]"
: >"$W/state.db"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "truncated to 0 bytes: refused, exit 66 (got $rc)" [ $rc = 66 ]
check "... says why and what to do" grep -q "state '$W/state.db' is empty, but it was in use" "$W/err"
check "... nothing mailed again" [ "$(wc -l <"$S/accepted")" = 1 ]
rm -f "$W/state.db"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "deleted: refused, exit 66 (got $rc)" [ $rc = 66 ]
check "... not recreated" [ ! -e "$W/state.db" ]
check "... nothing mailed again" [ "$(wc -l <"$S/accepted")" = 1 ]
rm -f "$W/.state.db.in-use"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "the marker removed: a fresh state, as asked" [ $? = 0 ]
