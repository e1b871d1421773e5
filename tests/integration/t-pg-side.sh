# Issue 34: instances side by side on one PostgreSQL state (a throw-away
# server of tests/pg/pgserver, stopped by its PID at the end). Three
# 'perfbot run' at once over 30 manifests: none exits 75 for a lock, and
# every report is mailed once (one mail per report id in the mailbox,
# under one Message-ID). Then the faults: a run SIGKILLed as soon as it
# has queued a report, and claims left by a killed process of this host
# on manifests and on queued mails: the next run finishes the work and
# nothing is mailed twice.
if ! own_pg pgside; then
	check "the PostgreSQL server starts" false
else
	pgsql() { PGPASSWORD=$PG_PASSWORD psql "$PG_URL" -X -q -t -A -c "$1"; }
	# each report id once in alice's mailbox, and one Message-ID for it
	once() {	# once FIRST LAST
		i=$1 last=$2
		while [ "$i" -le "$last" ]; do
			id=$(printf 'pgs-%02d' "$i")
			set -- $(search alice X-Perfbot-Report "$id")
			if [ $# != 1 ]; then
				echo "$id: $# mails" >&2
				return 1
			fi
			fetch alice "$1" | grep -i '^message-id:' >>"$W/mids"
			i=$((i + 1))
		done
	}
	"$PERFBOT" run --config "$PGC" 2>"$W/first.err"
	check "the state is made by a first run" [ $? = 0 ]
	i=1
	while [ $i -le 30 ]; do
		make_manifest "$(printf 'pgs-%02d' $i)" 004
		i=$((i + 1))
	done
	for k in 1 2 3; do
		"$PERFBOT" run --config "$PGC" 2>"$W/side$k.err" &
		eval "P$k=\$!"
	done
	wait $P1; R1=$?
	wait $P2; R2=$?
	wait $P3; R3=$?
	check "three runs at once: each exits 0 ($R1 $R2 $R3)" [ "$R1$R2$R3" = 000 ]
	check "none said the state was locked" sh -c "! grep -q 'try again later' '$W'/side*.err"
	check "the 30 reports were queued once between them" [ "$(cat "$W"/side*.err | grep -c "queued report 'pgs-")" = 30 ]
	# how they shared the work (said, not checked: the first to start may
	# take it all on a busy machine)
	echo "   (reports queued by each: $(for k in 1 2 3; do grep -c "queued report 'pgs-" "$W/side$k.err"; done | tr '\n' ' '))"
	: >"$W/mids"
	check "every report mailed once" once 1 30
	check "under 30 Message-IDs" [ "$(sort -u "$W/mids" | wc -l)" = 30 ]
	check "no claim is left" [ "$(pgsql "SELECT count(*) FROM manifest_claims")" = 0 ]

	# a run killed as soon as it has queued a report
	i=31
	while [ $i -le 40 ]; do
		make_manifest "$(printf 'pgs-%02d' $i)" 004
		i=$((i + 1))
	done
	"$PERFBOT" run --config "$PGC" 2>"$W/killed.err" &
	PK=$!
	n=0
	while [ $n -lt 300 ] && ! grep -q "queued report 'pgs-" "$W/killed.err"; do
		sleep 0.05
		n=$((n + 1))
	done
	kill -9 $PK
	wait $PK 2>/dev/null
	"$PERFBOT" run --config "$PGC" 2>"$W/after.err"
	check "the run after the killed one exits 0" [ $? = 0 ]
	: >"$W/mids"
	check "after a run killed mid-way: every report mailed once" once 31 40

	# claims of a killed process of this host: on queued mails (queued
	# while the mail server was away) and on manifests
	sed 's#^  url: smtp://.*#  url: smtp://127.0.0.1:1#' "$PGC" >"$W/nosmtp.yaml"
	i=46
	while [ $i -le 48 ]; do
		make_manifest "$(printf 'pgs-%02d' $i)" 004
		i=$((i + 1))
	done
	"$PERFBOT" run --config "$W/nosmtp.yaml" 2>"$W/nosmtp.err"
	check "with the mail server away the mails wait (75)" [ $? = 75 ]
	DEAD=$(sh -c 'echo $$')
	OWNER="$(hostname):$DEAD"
	pgsql "UPDATE outbox SET claim_owner = '$OWNER', claim_expires = 4000000000, next_attempt = 0 WHERE status = 'queued'" >/dev/null
	check "3 mails held by the killed process" [ "$(pgsql "SELECT count(*) FROM outbox WHERE claim_owner = '$OWNER'")" = 3 ]
	i=41
	while [ $i -le 45 ]; do
		make_manifest "$(printf 'pgs-%02d' $i)" 004
		pgsql "INSERT INTO manifest_claims VALUES ('$(printf 'pgs-%02d' $i)', '$OWNER', 4000000000)" >/dev/null
		i=$((i + 1))
	done
	check "5 manifests held by the killed process" [ "$(pgsql "SELECT count(*) FROM manifest_claims WHERE owner = '$OWNER'")" = 5 ]
	"$PERFBOT" run --config "$PGC" 2>"$W/takeover.err"
	check "the next run exits 0" [ $? = 0 ]
	check "it takes the killed process's manifests over" [ "$(grep -c "queued report 'pgs-4[1-5]'" "$W/takeover.err")" = 5 ]
	: >"$W/mids"
	check "and mails them and the held mails, each once" once 41 48
	check "nothing left queued or claimed" [ "$(pgsql "SELECT count(*) FROM outbox WHERE status = 'queued'")/$(pgsql "SELECT count(*) FROM manifest_claims")" = 0/0 ]
	check "the password is said nowhere" sh -c "! grep -l -- '$PG_PASSWORD' '$W'/*.err"
	unset PERFBOT_STATE_PW
fi
own_pg_stop
