# Issue 34 item 1: the state on PostgreSQL (a throw-away server of
# tests/pg/pgserver, stopped by its PID at the end). The same manifests
# run once with the SQLite state and once with 'state: postgresql://...'
# (its password from state_password_env) mail the same reports; a second
# run on PostgreSQL sends nothing; 'check' says the server's version and
# the schema's; 'state backup' writes the neutral dump, which 'state
# import' restores into a new SQLite state; the password is said nowhere.
if ! own_pg pgit; then
	check "the PostgreSQL server starts" false
	own_pg_stop
else
	# the SQLite half on SQLite also when the suite runs on PostgreSQL
	LITE="$W/lite.yaml"
	sed -e '/^state_password_file:/d' -e "s#^state: .*#state: $W/state.db#" "$CONFIG" >"$LITE"
	make_manifest p-000 000
	make_manifest p-003 003
	make_manifest p-004 004
	"$PERFBOT" run --config "$LITE" 2>"$W/lite.err"
	check "SQLite: run exits 0" [ $? = 0 ]
	check "SQLite: 3 sent" grep -q "run: 3 sent, 0 queued, 0 failed" "$W/lite.err"
	"$PERFBOT" check --config "$PGC" >"$W/pg-check0.out" 2>&1
	check "check before the first run: made by it" grep -q "^ok: state 'postgresql://perfbot@127.0.0.1:$PG_PORT/perfbot' (created on the first run)" "$W/pg-check0.out"
	"$PERFBOT" run --config "$PGC" 2>"$W/pg.err"
	check "PostgreSQL: run exits 0" [ $? = 0 ]
	check "PostgreSQL: 3 sent" grep -q "run: 3 sent, 0 queued, 0 failed" "$W/pg.err"
	for id in p-000 p-003 p-004; do
		check "$id: mailed once by each state" [ "$(count alice X-Perfbot-Report $id)" = 2 ]
		set -- $(search alice X-Perfbot-Report $id)
		fetch alice "$1" >"$W/$id.1.eml"
		fetch alice "$2" >"$W/$id.2.eml"
		# what each mail is, but its ids, dates, the servers' trace and
		# its parts' sizes (its Message-ID is in its text)
		for k in 1 2; do
			"$MAILCHECK" "$W/$id.$k.eml" 2>/dev/null |
				grep -v -i "^header \(message-id\|date\|references\|in-reply-to\|received\):" |
				sed 's/^\(part .*\) [0-9][0-9]*$/\1/' >"$W/$id.$k.check"
		done
		check "$id: the same subject and parts from both states" cmp -s "$W/$id.1.check" "$W/$id.2.check"
	done
	"$PERFBOT" run --config "$PGC" 2>"$W/pg2.err"
	check "PostgreSQL: a second run exits 0" [ $? = 0 ]
	check "PostgreSQL: a second run sends nothing" grep -q "run: 0 sent, 0 queued, 0 failed" "$W/pg2.err"
	"$PERFBOT" status --config "$PGC" >"$W/pg-status.out" 2>&1
	check "status: the 3 reports sent" grep -q "^outbox: 0 queued, 3 sent" "$W/pg-status.out"
	"$PERFBOT" check --config "$PGC" >"$W/pg-check.out" 2>&1
	check "check: the server's version and the schema's" grep -q "^ok: state postgresql://perfbot@127.0.0.1:$PG_PORT/perfbot: PostgreSQL [0-9][0-9.]*.*, schema version [0-9][0-9]*, hosts seen in the last day: $(hostname)$" "$W/pg-check.out"
	"$PERFBOT" state backup "$W/pg-backup.dump" --config "$PGC" >"$W/pg-backup.out" 2>&1
	check "state backup on PostgreSQL exits 0" [ $? = 0 ]
	check "state backup says it is a dump" grep -q "^backed up 'postgresql://perfbot@127.0.0.1:$PG_PORT/perfbot' to '$W/pg-backup.dump' as a dump ('perfbot state import' restores it): [0-9]* tables, [0-9]* rows, [0-9]* bytes$" "$W/pg-backup.out"
	check "the backup is the export's format, mode 0600" sh -c "head -1 '$W/pg-backup.dump' | grep -qx 'perfbot-state-dump 1' && [ \$(stat -c %a '$W/pg-backup.dump') = 600 ]"
	sed "s#^state: .*#state: $W/restored.db#" "$CONFIG" >"$W/restored.yaml"
	"$PERFBOT" state import "$W/pg-backup.dump" --config "$W/restored.yaml" 2>"$W/pg-restore.err"
	check "state import restores the backup" [ $? = 0 ]
	"$PERFBOT" status --config "$W/restored.yaml" >"$W/pg-restored.out" 2>&1
	check "the restored state has the 3 reports sent" grep -q "^outbox: 0 queued, 3 sent" "$W/pg-restored.out"
	check "the password is said nowhere" sh -c "! grep -l -- '$PG_PASSWORD' '$W'/pg*.err '$W'/pg-*.out"
	own_pg_stop
	unset PERFBOT_STATE_PW
fi
