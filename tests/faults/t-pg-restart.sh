# Issue 34 item 4: the PostgreSQL state's server restarted in the middle
# of a cycle (a throw-away one of tests/pg/pgserver, stopped by its PID).
# The run is in its SMTP transaction when the server goes: what it writes
# next fails, it exits 75 saying "try again later", and the next run
# works: the mail is recorded sent, mailed again under the one Message-ID
# it was given (a mail whose sending was not recorded is sent again).
PGD=$(mktemp -d /tmp/perfbot-pgfault.XXXXXX)
chmod 711 "$PGD"
if ! bash tests/pg/pgserver start "$PGD/srv" >"$PGD/start.log" 2>&1; then
	check "the PostgreSQL server starts" false
else
	. "$PGD/srv/env"
	F=$(mktemp -d /tmp/perfbot-front.XXXXXX)
	start_front smtp "$F"
	fx_setup "$PORT"
	sed -i -e '/^state_password_file:/d' -e "s#^state: .*#state: $PG_URL\nstate_password_env: PERFBOT_STATE_PW#" "$CONFIG"
	export PERFBOT_STATE_PW=$PG_PASSWORD
	make_manifest g-1
	printf 'wait eod\n' >"$F/script"
	"$PERFBOT" run --config "$CONFIG" 2>"$W/err" &
	run=$!
	for i in $(seq 1 100); do
		grep -q "^DATA" "$F/log" 2>/dev/null && break
		sleep 0.1
	done
	check "the run is in its SMTP transaction" grep -q "^DATA" "$F/log"
	bash tests/pg/pgserver restart "$PGD/srv" >/dev/null 2>&1
	check "the server restarted" bash tests/pg/pgserver status "$PGD/srv"
	: >"$F/go"
	wait "$run"
	rc=$?
	check "the run cut off: exit 75 (got $rc)" [ $rc = 75 ]
	check "it says try again later" grep -q "try again later" "$W/err"
	check "the password is said nowhere" sh -c "! grep -q -- '$PG_PASSWORD' '$W/err'"
	: >"$F/script"
	"$PERFBOT" run --config "$CONFIG" 2>"$W/err2"
	rc=$?
	check "the next run works: exit 0 (got $rc)" [ $rc = 0 ]
	"$PERFBOT" status --config "$CONFIG" >"$W/status" 2>&1
	check "the mail is recorded sent" grep -q "^outbox: 0 queued, 1 sent" "$W/status"
	ids=$(grep -h -i "^Message-Id:" "$F"/msg.* 2>/dev/null | sort -u | wc -l)
	check "every copy under the one Message-ID ($ids)" [ "$ids" = 1 ]
	unset PERFBOT_STATE_PW
fi
bash tests/pg/pgserver stop "$PGD/srv" >/dev/null 2>&1
rm -rf "$PGD"
