# Issue 29 item 12: 'perfbot state backup FILE' copies the state (SQLite's
# online backup) while a run holds the state's lock, into one checked
# file of mode 0600 that 'perfbot status' reads as the state; the state
# itself is refused as FILE, a state never made is 66.
sqlite_only "it checks SQLite's online backup, a database file (PostgreSQL's backup, a dump, is t-pg-state's)" || return 0
make_manifest bk-1 004
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "run: exit 0 (got $?)" [ $? = 0 ]
flock "$W/state.db" sleep 5 &
holder=$!
sleep 0.5
t0=$(date +%s)
timeout 20 "$PERFBOT" state backup "$W/copy.db" --config "$CONFIG" >"$W/bout" 2>"$W/berr"
rc=$?
t1=$(date +%s)
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
check "backup under a held run lock: exit 0 (got $rc)" [ $rc = 0 ]
check "backup: at once, not after the lock ($((t1 - t0)) s)" [ $((t1 - t0)) -lt 4 ]
check "backup: said" grep -q "^backed up '$W/state.db' to '$W/copy.db': [0-9]* pages, [0-9]* bytes" "$W/bout"
check "backup: mode 0600" [ "$(stat -c %a "$W/copy.db")" = 600 ]
check "backup: one file" [ ! -e "$W/copy.db-wal" ]
check "backup: the report's mail in it" [ "$(sqlite3 "$W/copy.db" "SELECT status FROM outbox WHERE id = 'bk-1'")" = sent ]
check "backup: integrity ok" [ "$(sqlite3 "$W/copy.db" 'PRAGMA integrity_check')" = ok ]
sed "s#^state: .*#state: $W/copy.db#" "$CONFIG" >"$W/restored.yaml"
"$PERFBOT" status --json --config "$W/restored.yaml" >"$W/sout" 2>"$W/serr"
check "status reads the copy" grep -q '"sent": 1' "$W/sout"
"$PERFBOT" state backup "$W/state.db" --config "$CONFIG" >/dev/null 2>"$W/e2"
check "the state itself refused: 64 (got $?)" [ $? = 64 ]
check "the state itself: said" grep -q "that is the state itself" "$W/e2"
sed "s#^state: .*#state: $W/none.db#" "$CONFIG" >"$W/none.yaml"
"$PERFBOT" state backup "$W/x.db" --config "$W/none.yaml" >/dev/null 2>"$W/e3"
check "no state yet: 66 (got $?)" [ $? = 66 ]
check "no state yet: nothing made" [ ! -e "$W/x.db" ]

# 'perfbot state prune': the result roots of requests over for
# scheduler.results_keep, only those perfbot made under results_dir.
mkdir -p "$W/results/t-1/0" "$W/results/t-2" "$W/results/mine"
echo '{}' >"$W/results/t-1/matrix.json"
echo 'diff' >"$W/results/t-1.patch"
"$PERFBOT" state prune --config "$CONFIG" >/dev/null 2>"$W/p0"
check "prune without results_keep: 78 (got $?)" [ $? = 78 ]
check "prune without results_keep: said" grep -q "scheduler.results_keep: not set" "$W/p0"
printf 'scheduler:\n  results_dir: %s/results\n  results_keep: 30d\n' "$W" >>"$CONFIG"
old=$(( $(date +%s) - 40 * 86400 ))
for t in t-1:$old t-2:$(date +%s); do
	sql "INSERT INTO requests (kind, request_id, report_id, form, runs, requested_by, reply_message_id, commit_sha, result_root, status, deadline, created, decided) VALUES ('test', '${t%%:*}', 'bk-1', 'patch', 3, 'a@example.test', '<m@x>', 'abc', '$W/results/${t%%:*}', 'done', 0, ${t#*:}, ${t#*:})"
done
"$PERFBOT" state prune --dry-run --config "$CONFIG" >"$W/p1" 2>&1
check "prune --dry-run: says one" grep -q "^prune: would remove 1 result root" "$W/p1"
check "prune --dry-run: removes nothing" [ -f "$W/results/t-1/matrix.json" ]
"$PERFBOT" state prune --config "$CONFIG" >"$W/p2" 2>&1
check "prune: exit 0 (got $?)" [ $? = 0 ]
check "prune: the old root gone, its patch too" sh -c "[ ! -e '$W/results/t-1' ] && [ ! -e '$W/results/t-1.patch' ]"
check "prune: the recent one kept" [ -d "$W/results/t-2" ]
check "prune: a directory no request names kept" [ -d "$W/results/mine" ]
