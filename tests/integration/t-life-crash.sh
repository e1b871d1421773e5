# Nothing mailed twice across crashes: 'perfbot run' killed with SIGKILL
# at random moments, cycle after cycle, while thousands of commits land
# on the tracked branch (each cycle's holding the fix of one report) and
# a reminder falls due every cycle (SOURCE_DATE_EPOCH two hours on);
# then clean runs. Each fix is answered once (one transition, one answer,
# one Message-ID however often it was delivered), each reminder period
# has one reminder, and the state passes integrity_check.
. tests/integration/life-lib.sh
cycles=${PERFBOT_LIFE_CYCLES:-10}
per=${PERFBOT_LIFE_COMMITS:-5000}
max_ms=${PERFBOT_LIFE_MAX_MS:-250}
reports=6
base=$(date +%s)
seeds=(002 003)
for k in $(seq 1 $reports); do
	make_manifest "kc-$k" "${seeds[$((k % 2))]}"
done
life_repo
life_tracking
life_reminders
SOURCE_DATE_EPOCH=$base "$PERFBOT" run --quiet --config "$CONFIG" 2>"$W/e0"
check "the reports are mailed" [ "$(sql "SELECT count(*) FROM reports WHERE status = 'sent'")" = $reports ]
# 'per' commits on master, the one in the middle closing report 'k'
commits() {	# commits CYCLE TIME
	mid=$(sql "SELECT message_id FROM outbox WHERE id = 'kc-$1'")
	awk -v n="$per" -v c="$1" -v t="$2" -v mid="$mid" 'BEGIN {
		for (i = 1; i <= n; i++) {
			msg = "cycle " c " commit " i "\n\nwords\n"
			if (i == int(n / 2) && mid != "")
				msg = "fix " c "\n\nCloses: https://lore.example.test/perf/" mid "\n"
			printf "commit refs/heads/master\ncommitter Dev <dev@example.test> %d +0000\ndata %d\n%s", t, length(msg), msg
			if (i == 1)
				printf "from refs/heads/master^0\n"
			printf "\n"
		}
	}' | git -C "$W/repo" fast-import --quiet
}
killed=0 done=0
for c in $(seq 1 "$cycles"); do
	now=$((base + c * 7200))
	commits "$c" "$now"
	SOURCE_DATE_EPOCH=$now "$PERFBOT" run --quiet --config "$CONFIG" >/dev/null 2>>"$W/kill-err" &
	pid=$!
	sleep "$(printf '0.%03d' $((RANDOM % max_ms)))"
	if kill -KILL "$pid" 2>/dev/null; then killed=$((killed + 1)); else done=$((done + 1)); fi
	wait "$pid" 2>/dev/null
done
now=$((base + (cycles + 1) * 7200))
for i in $(seq 1 10); do
	SOURCE_DATE_EPOCH=$now "$PERFBOT" run --quiet --config "$CONFIG" >/dev/null 2>>"$W/clean-err"
	[ "$(sql "SELECT count(*) FROM outbox WHERE status != 'sent'")" = 0 ] && break
done
check "$cycles cycles ($killed killed, $done done first): every fix landed" [ "$(sql "SELECT count(*) FROM records WHERE status = 'fix landed'")" = $reports ]
sqlite_only "integrity_check is SQLite's (a PostgreSQL transaction is atomic by the server's WAL)" &&
	check "the state passes integrity_check" [ "$(sql "PRAGMA integrity_check")" = ok ]
check "one transition a fix" [ "$(sql "SELECT count(*) FROM record_events WHERE event = 'landed'")" = $reports ]
check "one answer a fix" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'answer'")" = $reports ]
check "every mail sent" [ "$(sql "SELECT count(*) FROM outbox WHERE status != 'sent'")" = 0 ]
nrem=$(sql "SELECT count(*) FROM reminders")
check "a reminder a period, no more ($nrem)" [ "$(sql "SELECT count(*) FROM reminders a JOIN reminders b ON b.created > a.created AND b.created - a.created < 3600")" = 0 ]
check "each reminder recorded once with its mail" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'reminder'")" = "$nrem" ]
# what arrived: per thread, one Message-ID, whatever was sent again
for k in $(seq 1 $reports); do
	mid=$(sql "SELECT message_id FROM outbox WHERE id = 'kc-$k'")
	life_wait alice In-Reply-To "$mid" 1
done
ids() {	# ids USER HEADER VALUE: the Message-IDs of those mails, sorted
	for u in $(search "$1" "$2" "$3"); do
		imap "$1" "/;UID=$u;SECTION=HEADER.FIELDS%20(MESSAGE-ID)" | tr -d '\r' |
			sed -n 's/^[Mm]essage-[Ii][Dd]: *<\(.*\)>.*/\1/p'
	done | sort
}
twice=0
for k in $(seq 1 $reports); do
	mid=$(sql "SELECT message_id FROM outbox WHERE id = 'kc-$k'")
	n=$(ids alice In-Reply-To "$mid" | sort -u | wc -l)
	[ "$n" = 1 ] || twice=$((twice + 1))
done
check "each fix answered under one Message-ID" [ "$twice" = 0 ]
life_wait perf-reports Subject "open performance regressions" "$nrem"
sql "SELECT message_id FROM outbox WHERE kind = 'reminder'" | sort >"$W/rem-recorded"
ids perf-reports Subject "open performance regressions" | sort -u >"$W/rem-delivered"
check "each reminder delivered under its recorded Message-ID" cmp -s "$W/rem-recorded" "$W/rem-delivered"
echo "life-crash: $cycles cycles of $per commits, $killed killed, $nrem reminders, $(search alice Subject 'Re:' | wc -w) answers delivered"
