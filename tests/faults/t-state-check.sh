# Issue 29 item 22: 'run' and 'send' refuse a state with a garbage page
# (one that fails SQLite's quick check) at its open: exit 74, one line
# saying it is damaged, nothing sent; 'status' said 74 already.
sqlite_only "a damaged page of SQLite's file" || return 0
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
fx_setup "$PORT"
make_manifest d-1
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err0"
check "the report is sent" [ "$(sql "SELECT status FROM outbox WHERE id = 'd-1'")" = sent ]
make_manifest d-2
# a page no step of 'send' reads: the root of the inbox table
ps=$(sql "PRAGMA page_size")
page=$(sql "SELECT rootpage FROM sqlite_master WHERE name = 'inbox'")
head -c "$ps" /dev/urandom | dd of="$W/state.db" bs="$ps" seek=$((page - 1)) conv=notrunc status=none
check "the page is damaged" sh -c "[ \"\$(sqlite3 '$W/state.db' 'PRAGMA quick_check' 2>&1)\" != ok ]"
: >"$S/accepted"
for c in send run; do
	"$PERFBOT" $c --config "$CONFIG" >"$W/out" 2>"$W/err-$c"
	rc=$?
	check "$c: exit 74 (got $rc)" [ $rc = 74 ]
	check "$c: one line saying the state is damaged" [ "$(grep -c "perfbot: .*state.db: check: damaged (.*): restore it from a backup" "$W/err-$c")" = 1 ]
done
check "nothing was sent" [ ! -s "$S/accepted" ]
