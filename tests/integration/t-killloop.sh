# A kill loop: 'perfbot run' killed with SIGKILL at random moments, cycle
# after cycle, while new manifests keep coming; then clean runs. Every
# report arrives, none with two Message-IDs, and the state passes
# 'pragma integrity_check'. 8 cycles in 'make check'; the long mode:
#   PERFBOT_KILLLOOP_CYCLES=50 PERFBOT_KILLLOOP_REPORTS=320 (>= 50 cycles
#   over >= 300 reports), PERFBOT_KILLLOOP_MAX_MS (the latest kill, 400).
cycles=${PERFBOT_KILLLOOP_CYCLES:-8}
reports=${PERFBOT_KILLLOOP_REPORTS:-24}
max_ms=${PERFBOT_KILLLOOP_MAX_MS:-400}
seeds=(000 001 002 003 004)
made=0 killed=0 finished=0
per=$(( (reports + cycles - 1) / cycles ))
for c in $(seq 1 "$cycles"); do
	for k in $(seq 1 "$per"); do
		[ "$made" -ge "$reports" ] && break
		made=$((made + 1))
		make_manifest "kl-$made" "${seeds[$((made % 5))]}"
	done
	"$PERFBOT" run --quiet --config "$CONFIG" >/dev/null 2>>"$W/kill-err" &
	pid=$!
	ms=$((RANDOM % max_ms))
	sleep "$(printf '0.%03d' "$ms")"
	if kill -KILL "$pid" 2>/dev/null; then killed=$((killed + 1)); else finished=$((finished + 1)); fi
	wait "$pid" 2>/dev/null
done
clean=0
for i in $(seq 1 20); do
	"$PERFBOT" run --quiet --config "$CONFIG" >/dev/null 2>>"$W/clean-err"
	clean=$((clean + 1))
	[ "$(sql "SELECT count(*) FROM outbox WHERE status != 'sent'")" = 0 ] &&
		[ "$(sql "SELECT count(*) FROM reports")" -ge "$made" ] && break
done
check "$made reports made over $cycles cycles ($killed killed, $finished done before the kill, $clean clean runs)" [ "$made" = "$reports" ]
sqlite_only "integrity_check is SQLite's (a PostgreSQL transaction is atomic by the server's WAL)" &&
	check "the state passes integrity_check" [ "$(sql "PRAGMA integrity_check")" = ok ]
check "every report queued once" [ "$(sql "SELECT count(DISTINCT id) FROM reports")" = "$made" ]
check "every report sent" [ "$(sql "SELECT count(*) FROM reports WHERE status = 'sent'")" = "$made" ]
# Postfix delivers in its own time: wait for every report in alice's box
hdrs() {	# "REPORT-ID <MESSAGE-ID>" of every kl- mail in alice's box
	set -- $(search alice X-Perfbot-Report kl-)
	[ $# -gt 0 ] || return 0
	urls=()
	for u in "$@"; do
		urls+=("imap://127.0.0.1:$IMAP_PORT/INBOX;UID=$u;SECTION=HEADER.FIELDS%20(X-PERFBOT-REPORT%20MESSAGE-ID)")
	done
	curl -s --max-time 120 --cacert "$CA_FILE" --ssl-reqd -u alice:alice-pw "${urls[@]}" |
		tr -d '\r' | awk '
			tolower($1) == "x-perfbot-report:" { r = $2 }
			tolower($1) == "message-id:" { m = $2 }
			/^$/ { if (r != "" && m != "") print r, m; r = ""; m = "" }
			END { if (r != "" && m != "") print r, m }' | sort
}
for i in $(seq 1 300); do
	[ "$(count alice X-Perfbot-Report kl-)" -ge "$made" ] && break
	sleep 0.2
done
sleep 1
hdrs >"$W/copies"
sort -u "$W/copies" >"$W/delivered"
check "every report arrives ($(cut -d' ' -f1 "$W/delivered" | sort -u | wc -l) of $made)" [ "$(cut -d' ' -f1 "$W/delivered" | sort -u | wc -l)" = "$made" ]
check "none with two Message-IDs" [ "$(cut -d' ' -f1 "$W/delivered" | uniq -d | wc -l)" = 0 ]
sql "SELECT id, '<' || message_id || '>' FROM reports" | tr '|' ' ' | sort >"$W/recorded"
check "each delivered with the Message-ID recorded" cmp -s "$W/recorded" "$W/delivered"
copies=$(wc -l <"$W/copies")
echo "killloop: $cycles cycles, $killed killed, $made reports, $copies copies delivered to alice ($((copies - made)) resent after a kill), $clean clean runs"
