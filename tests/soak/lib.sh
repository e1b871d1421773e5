# The soak of issue 34 ("Done when"), sourced by tests/soak/run (the long
# one, 'make soak') and tests/integration/t-pg-soak.sh (a short one in
# 'make check'). Needs what tests/integration/lib.sh gives after pb_setup:
# TOP, PERFBOT, W, CONFIG, the mail servers' env (SMTP_PORT, MAILBOX_DIR).
#
# soak_main REPORTS REPLIES INSTANCES BACKEND TIMEOUT
#   BACKEND postgresql (a throw-away server of tests/pg/pgserver) or sqlite.
#   Writes REPORTS manifests (in batches, while it runs) for the fixtures'
#   seeds; runs INSTANCES loops of 'perfbot run' on the one state; a killer
#   SIGKILLs a random running instance every 0.5-3 s; a replier sends
#   REPLIES replies ('retest 2x', answered by an acknowledgement; the farm
#   is a spool) from the author to the reports as they arrive, one reply
#   per report, into the bot's mailbox over SMTP. When every report is
#   mailed and every reply answered (or after TIMEOUT seconds) it stops
#   them, runs one clean 'perfbot run' to drain what is left, and counts
#   from the author's Maildir:
#     lost      reports with no mail
#     twoids    reports mailed under two Message-IDs or more
#     again     reports delivered twice under one Message-ID (a run killed
#               after the server took the mail and before the state said
#               so; the receivers see one message: not a failure)
#     unanswered, answered twice (two Message-IDs), answered again (one)
#   and prints one line 'soak: ...' of figures and PASS or FAIL. Sets
#   SOAK_FAIL (0 or 1), SOAK_LOST, SOAK_TWOIDS, SOAK_UNANSWERED,
#   SOAK_ANSWERED2, SOAK_MAILED, SOAK_ANSWERED, SOAK_KILLS, SOAK_OTHER
#   (runs that ended with an exit code other than 0, 75 or a SIGKILL).
# Everything is under $W/soak; a PostgreSQL server it started is stopped by
# its PID whatever happens (soak_cleanup, also called by soak_main).

SOAK_SEEDS="000 001 002 003 004"

# soak_headers FILE...: per mail "MESSAGE-ID REPORT IN-REPLY-TO" ('-' for
# none), from the header of each Maildir file
soak_headers() {
	[ $# -gt 0 ] || return 0
	awk 'function emit() {
		if (pending)
			print (mid == "" ? "-" : mid), (rep == "" ? "-" : rep), (irt == "" ? "-" : irt)
		pending = 0
	}
	function clean(v) { gsub(/[ \t<>]/, "", v); return v }
	FNR == 1 { emit(); pending = 1; mid = rep = irt = ""; last = "" }
	/^$/ { emit(); nextfile }
	/^[ \t]/ {
		if (last == "message-id") mid = mid clean($0)
		else if (last == "in-reply-to") irt = irt clean($0)
		next
	}
	{
		i = index($0, ":")
		last = tolower(substr($0, 1, i - 1))
		v = clean(substr($0, i + 1))
		if (last == "message-id") mid = v
		else if (last == "x-perfbot-report") rep = v
		else if (last == "in-reply-to") irt = v
	}
	END { emit() }' "$@"
}

# the author's mails of this soak: "r MESSAGE-ID REPORT" for a report,
# "a MESSAGE-ID REPLY-ID" for an answer to one of the soak's replies
soak_mails() {
	local d=$MAILBOX_DIR/alice/Maildir
	set -- $(find "$d/new" "$d/cur" -type f 2>/dev/null)
	soak_headers "$@" 2>/dev/null | awk -v t="$SK_TAG" '
		index($3, "soakreply-" t "-") == 1 { print "a", $1, $3; next }
		index($2, t) == 1 { print "r", $1, $2 }'
}

# soak_feeder: the manifests, SK_BATCH at a time, one batch a second (each
# written aside, then renamed into the source folder)
soak_feeder() {
	local i=0
	mkdir -p "$SK/stage"
	while [ $i -lt "$SK_N" ]; do
		awk -v from=$((i + 1)) -v n="$SK_N" -v b="$SK_BATCH" -v t="$SK_TAG" \
			-v sk="$SK" -v seeds="$SOAK_SEEDS" 'BEGIN {
			ns = split(seeds, seed, " ")
			for (i = from; i < from + b && i <= n; i++) {
				f = sprintf("%s/stage/%s%05d.yaml", sk, t, i)
				printf "id: %s%05d\n", t, i > f
				src = sk "/seed-" seed[i % ns + 1]
				while ((getline l < src) > 0)
					print l > f
				close(src)
				close(f)
			}
		}'
		mv "$SK/stage/"*.yaml "$W/manifests/"
		i=$((i + SK_BATCH))
		sleep 1
	done
	touch "$SK/fed"
}

# soak_instance I: 'perfbot run' again and again until $SK/stop
soak_instance() {
	local rc
	while [ ! -e "$SK/stop" ]; do
		"$PERFBOT" run --config "$SK_CONFIG" 2>>"$SK/run$1.err" &
		echo $! >"$SK/pid$1"
		wait $!
		rc=$?
		rm -f "$SK/pid$1"
		echo $rc >>"$SK/rc"
		[ $rc = 0 ] || sleep 0.2
	done
}

# soak_killer: SIGKILL a random running instance every 0.5-3 s (or
# SOAK_KILL_EVERY="MIN MAX" seconds)
soak_killer() {
	local i pid exe lo hi
	set -- ${SOAK_KILL_EVERY:-0.5 3}
	lo=$1 hi=$2
	while [ ! -e "$SK/stop" ]; do
		sleep "$(awk -v r=$RANDOM -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%.2f", lo + (hi - lo) * r / 32767 }')"
		[ -e "$SK/stop" ] && break
		i=$((RANDOM % SK_K + 1))
		pid=$(cat "$SK/pid$i" 2>/dev/null) || continue
		exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || continue
		# ('perfbot' execs 'perfbot-full' in the same process)
		[ "$exe" = "$SK_EXE" ] || [ "$exe" = "$SK_EXE-full" ] || continue
		kill -KILL "$pid" 2>/dev/null && echo "$i $pid" >>"$SK/kills"
	done
}

# soak_reply N MESSAGE-ID: the author's 'retest 2x' to a report
soak_reply() {
	{
		printf 'From: Dev <alice@example.test>\nTo: perfbot@example.test\n'
		printf 'Subject: Re: soak report\nDate: %s\n' "$(date -R)"
		printf 'Message-ID: <soakreply-%s-%05d@example.test>\n' "$SK_TAG" "$1"
		printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$2" "$2"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
		printf 'retest 2x\n'
	} | curl -s --max-time 20 --mail-from alice@example.test \
		--mail-rcpt perfbot@example.test -T - "smtp://127.0.0.1:$SMTP_PORT"
}

# soak_replier: a reply to each report mailed, until SK_R are sent
soak_replier() {
	local sent=0 mid rep
	: >"$SK/replied"
	while [ ! -e "$SK/stop" ] && [ $sent -lt "$SK_R" ]; do
		soak_mails | awk '$1 == "r" { print $2, $3 }' | sort -u -k2,2 >"$SK/reports"
		while read -r mid rep; do
			[ $sent -lt "$SK_R" ] || break
			grep -qx "$rep" "$SK/replied" && continue
			sent=$((sent + 1))
			soak_reply $sent "$mid" && echo "$rep" >>"$SK/replied" ||
				echo "reply $sent to $rep: curl failed" >>"$SK/replier.err"
		done <"$SK/reports"
		echo $sent >"$SK/replies-sent"
		sleep 1
	done
}

# soak_done: every report mailed, every reply sent and answered
soak_done() {
	[ -e "$SK/fed" ] || return 1
	[ "$(cat "$SK/replies-sent" 2>/dev/null)" = "$SK_R" ] || return 1
	soak_mails >"$SK/mails.now"
	awk -v n="$SK_N" -v r="$SK_R" '
		$1 == "r" { rep[$3] = 1 }
		$1 == "a" { ans[$3] = 1 }
		END {
			for (k in rep) nr++
			for (k in ans) na++
			exit !(nr + 0 >= n && na + 0 >= r)
		}' "$SK/mails.now"
}

# soak_settle: wait until the author's Maildir stops growing (3 s)
soak_settle() {
	local last=-1 now same=0 i
	for i in $(seq 1 300); do
		now=$(find "$MAILBOX_DIR/alice/Maildir/new" "$MAILBOX_DIR/alice/Maildir/cur" -type f 2>/dev/null | wc -l)
		if [ "$now" = "$last" ]; then
			same=$((same + 1))
			[ $same -ge 30 ] && return 0
		else
			same=0
		fi
		last=$now
		sleep 0.1
	done
}

soak_cleanup() {
	if [ -n "${SK_PGD:-}" ]; then
		bash "$TOP/tests/pg/pgserver" stop "$SK_PGD/srv" >/dev/null 2>&1
		rm -rf "$SK_PGD"
		SK_PGD=
	fi
}

soak_main() {
	local t0 t1 p s i
	SK_N=$1 SK_R=$2 SK_K=$3 SK_BACKEND=$4 SK_TIMEOUT=$5
	SK=$W/soak
	SK_TAG=soak$(printf '%04x' $((RANDOM % 65536)))
	SK_BATCH=$(( (SK_N + 19) / 20 ))
	SK_EXE=$(readlink -f "$PERFBOT")
	SK_PGD=
	SOAK_FAIL=1
	mkdir -p "$SK" "$W/spool"
	SK_CONFIG=$W/soak.yaml
	sed 's/^  mails_per_hour: .*/  mails_per_hour: 1000000\n  per_sender_per_day: 1000000\n  refusals_per_day: 1000000/' \
		"$CONFIG" >"$SK_CONFIG"
	printf 'scheduler:\n  backend: spool\n  spool_dir: %s/spool\n  deadline: 86400\n' "$W" >>"$SK_CONFIG"
	if [ "$SK_BACKEND" = postgresql ]; then
		SK_PGD=$(mktemp -d /tmp/perfbot-soakpg.XXXXXX)
		chmod 711 "$SK_PGD"
		if ! bash "$TOP/tests/pg/pgserver" start "$SK_PGD/srv" >"$SK/pg-start.log" 2>&1; then
			echo "soak: the PostgreSQL server did not start: $(tail -n 1 "$SK/pg-start.log")"
			soak_cleanup
			return 1
		fi
		. "$SK_PGD/srv/env"
		export PERFBOT_STATE_PW=$PG_PASSWORD
		sed -i "s#^state: .*#state: $PG_URL\nstate_password_env: PERFBOT_STATE_PW#" "$SK_CONFIG"
	fi
	# the manifests' bodies, one a seed (made before any instance runs)
	for s in $SOAK_SEEDS; do
		make_manifest "soak-seed-$s" "$s"
		sed 1d "$W/manifests/soak-seed-$s.yaml" >"$SK/seed-$s"
		rm -f "$W/manifests/soak-seed-$s.yaml"
	done
	t0=$(date +%s%N)
	soak_feeder &
	SK_PIDS=$!
	for i in $(seq 1 "$SK_K"); do
		soak_instance "$i" 2>>"$SK/inst$i.log" &
		SK_PIDS="$SK_PIDS $!"
	done
	soak_killer 2>>"$SK/killer.log" &
	SK_PIDS="$SK_PIDS $!"
	soak_replier 2>>"$SK/replier.log" &
	SK_PIDS="$SK_PIDS $!"
	SK_TIMED_OUT=0
	until soak_done; do
		if [ $(( ($(date +%s%N) - t0) / 1000000000 )) -ge "$SK_TIMEOUT" ]; then
			SK_TIMED_OUT=1
			break
		fi
		sleep 1
	done
	t1=$(date +%s%N)
	touch "$SK/stop"
	for p in $SK_PIDS; do wait "$p" 2>/dev/null; done
	# what is left: one clean run, nothing killed
	"$PERFBOT" run --config "$SK_CONFIG" 2>"$SK/drain.err"
	SK_DRAIN_RC=$?
	SK_DRAINED=$(sed -n 's/.*run: \([0-9]*\) sent.*/\1/p' "$SK/drain.err" | tail -n 1)
	"$PERFBOT" status --config "$SK_CONFIG" >"$SK/status.out" 2>&1
	SK_QUEUED=$(sed -n 's/^outbox: \([0-9]*\) queued.*/\1/p' "$SK/status.out")
	soak_settle
	soak_mails >"$SK/mails"
	soak_cleanup
	soak_count "$t0" "$t1"
}

# soak_count T0 T1: the figures from $SK/mails and the runs' exit codes
soak_count() {
	local figures
	figures=$(awk -v n="$SK_N" -v tag="$SK_TAG" -v sentr="$(cat "$SK/replies-sent" 2>/dev/null || echo 0)" '
		$1 == "r" { mails[$3]++; if (!(($3 SUBSEP $2) in rid)) { rid[$3, $2] = 1; ids[$3]++ } }
		$1 == "a" { amails[$3]++; if (!(($3 SUBSEP $2) in aid)) { aid[$3, $2] = 1; aids[$3]++ } }
		END {
			for (i = 1; i <= n; i++) {
				id = sprintf("%s%05d", tag, i)
				if (!(id in mails)) lost++
				else {
					mailed++
					if (ids[id] > 1) twoids++
					else if (mails[id] > 1) again++
				}
			}
			for (i = 1; i <= sentr; i++) {
				id = sprintf("soakreply-%s-%05d@example.test", tag, i)
				if (!(id in amails)) unans++
				else {
					ans++
					if (aids[id] > 1) ans2++
					else if (amails[id] > 1) anagain++
				}
			}
			printf "%d %d %d %d %d %d %d %d\n", mailed, lost, twoids, again, ans, unans, ans2, anagain
		}' "$SK/mails")
	set -- $figures "$1" "$2"
	SOAK_MAILED=$1 SOAK_LOST=$2 SOAK_TWOIDS=$3 SOAK_AGAIN=$4
	SOAK_ANSWERED=$5 SOAK_UNANSWERED=$6 SOAK_ANSWERED2=$7 SOAK_ANSWERED_AGAIN=$8
	local wall=$(( (${10} - ${9}) / 1000000 ))
	SOAK_KILLS=$(wc -l <"$SK/kills" 2>/dev/null || echo 0)
	local runs ok busy killed
	runs=$(wc -l <"$SK/rc")
	ok=$(grep -cx 0 "$SK/rc")
	busy=$(grep -cx 75 "$SK/rc")
	killed=$(grep -cx 137 "$SK/rc")
	SOAK_OTHER=$((runs - ok - busy - killed))
	SOAK_REPLIES_SENT=$(cat "$SK/replies-sent" 2>/dev/null || echo 0)
	SOAK_FAIL=0
	[ "$SOAK_LOST" = 0 ] && [ "$SOAK_TWOIDS" = 0 ] && [ "$SOAK_UNANSWERED" = 0 ] &&
		[ "$SOAK_ANSWERED2" = 0 ] && [ "$SOAK_REPLIES_SENT" = "$SK_R" ] || SOAK_FAIL=1
	local verdict=PASS
	[ $SOAK_FAIL = 0 ] || verdict=FAIL
	# a soak that ran out of time before all its replies were sent lost
	# nothing by that: say so
	[ $SOAK_FAIL = 1 ] && [ "$SOAK_LOST" = 0 ] && [ "$SOAK_TWOIDS" = 0 ] &&
		[ "$SOAK_UNANSWERED" = 0 ] && [ "$SOAK_ANSWERED2" = 0 ] &&
		verdict="FAIL (only $SOAK_REPLIES_SENT of $SK_R replies sent in time)"
	printf 'soak: %s, %d instance(s), %d reports, %d replies: %d mailed, %d lost, %d under two Message-IDs, %d delivered again under one; %d replies answered, %d unanswered, %d answered under two Message-IDs, %d answered again under one; %d runs (%d ok, %d busy 75, %d SIGKILLed, %d other), %d kills (every %s-%s s); drain sent %s, %s left queued; %s%.1f s wall; %s\n' \
		"$SK_BACKEND" "$SK_K" "$SK_N" "$SK_R" "$SOAK_MAILED" "$SOAK_LOST" \
		"$SOAK_TWOIDS" "$SOAK_AGAIN" "$SOAK_ANSWERED" "$SOAK_UNANSWERED" \
		"$SOAK_ANSWERED2" "$SOAK_ANSWERED_AGAIN" "$runs" "$ok" "$busy" \
		"$killed" "$SOAK_OTHER" "$SOAK_KILLS" ${SOAK_KILL_EVERY:-0.5 3} "${SK_DRAINED:-?}" "${SK_QUEUED:-?}" \
		"$([ "$SK_TIMED_OUT" = 1 ] && echo "TIMED OUT after ")" \
		"$(awk -v w="$wall" 'BEGIN { print w / 1000 }')" "$verdict"
	if [ "$SOAK_OTHER" != 0 ]; then
		echo "soak: other exit codes: $(grep -vx '0\|75\|137' "$SK/rc" | sort | uniq -c | tr -s ' \n' ' ')"
	fi
}
