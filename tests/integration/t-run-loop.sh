# 'perfbot run --loop SECONDS' (issue 34 item 4): a cycle, then a wait of
# SECONDS, until a signal stops it. On SQLite a manifest added while it
# waits is sent by its next cycle. On PostgreSQL (a throw-away server of
# tests/pg/pgserver) the wait listens: another instance's run queueing a
# report wakes it at once, not SECONDS later.
# (Its reports' ids are its own: the IMAP searches of the other tests match
# substrings of X-Perfbot-Report in the one mailbox of a run.)
until_sent() {	# until_sent ID SECS: ID sent within SECS
	n=0
	while [ $n -lt $(($2 * 10)) ]; do
		[ "$(sql "SELECT status FROM outbox WHERE id = '$1'" 2>/dev/null)" = sent ] && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
until_grep() {	# until_grep PATTERN FILES SECS (FILES split at spaces)
	n=0
	while [ $n -lt $(($3 * 10)) ]; do
		grep -q "$1" $2 2>/dev/null && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
"$PERFBOT" run --loop 0 --config "$CONFIG" 2>"$W/u1"
check "--loop 0: usage (64)" [ $? = 64 ]
check "--loop 0: says the range" grep -q "^perfbot: --loop: '0': not a number of seconds from 1 to 86400$" "$W/u1"
"$PERFBOT" run --loop 5 --dry-run --config "$CONFIG" 2>"$W/u2"
check "--loop with --dry-run: usage (64)" [ $? = 64 ]
make_manifest runloop-a 004
"$PERFBOT" run --loop 2 --config "$CONFIG" 2>"$W/loop.err" &
LP=$!
check "the loop's first cycle sends runloop-a" until_sent runloop-a 30
make_manifest runloop-b 003
check "a manifest added while it waits is sent by its next cycle" until_sent runloop-b 20
check "the loop still runs" kill -0 $LP
kill $LP
wait $LP 2>/dev/null
check "a signal stops it" sh -c "! kill -0 $LP 2>/dev/null"
check "each sent once" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'sent'")" = 2 ]

if ! own_pg pgloop; then
	check "the PostgreSQL server starts" false
else
	rm -f "$W/manifests"/*.yaml
	make_manifest runloop-pg-a 000
	"$PERFBOT" run --loop 300 --config "$PGC" 2>"$W/a.err" &
	LA=$!
	check "PostgreSQL: the loop's first cycle ends" until_grep "run: 1 sent" "$W/a.err" 30
	make_manifest runloop-pg-b 004
	# another instance on the same server: its run queues runloop-pg-b
	"$PERFBOT" run --config "$PGC" 2>"$W/b.err"
	check "PostgreSQL: the other instance's run exits 0" [ $? = 0 ]
	check "PostgreSQL: the waiting loop is woken within 5 s, not 300" until_grep "run --loop: woken: work was queued" "$W/a.err" 5
	# the woken loop runs beside the other instance (no run lock between
	# them): either may be the one that sends it
	check "PostgreSQL: runloop-pg-b is sent by one of them" until_grep "sent report 'runloop-pg-b'" "$W/a.err $W/b.err" 30
	check "PostgreSQL: the password is said nowhere" sh -c "! grep -q '$PG_PASSWORD' '$W/a.err' '$W/b.err'"
	kill $LA
	wait $LA 2>/dev/null
	check "PostgreSQL: a signal stops it" sh -c "! kill -0 $LA 2>/dev/null"
	check "PostgreSQL: runloop-pg-b mailed once" [ "$(count alice X-Perfbot-Report runloop-pg-b)" = 1 ]
fi
own_pg_stop
