# Two configs that reach one state through a symlink and a hard link share
# one run lock: two concurrent sends of 20 queued mails deliver each once.
sqlite_only "the state's file names (a symlink, a hard link) are SQLite's" || return 0
for i in $(seq -w 1 20); do make_manifest ln-$i 004; done
sed 's/^  mails_per_hour: 1000$/  mails_per_hour: 0/' "$CONFIG" >"$W/queue.yaml"
"$PERFBOT" run --config "$W/queue.yaml" 2>"$W/e0"
check "20 queued, none sent" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'queued'")" = 20 ]
ln -s "$W/state.db" "$W/sym.db"
ln "$W/state.db" "$W/hard.db"
sed "s#^state: .*#state: $W/sym.db#" "$CONFIG" >"$W/sym.yaml"
sed "s#^state: .*#state: $W/hard.db#" "$CONFIG" >"$W/hard.yaml"
"$PERFBOT" send --config "$W/sym.yaml" 2>"$W/e1" & p1=$!
"$PERFBOT" send --config "$W/hard.yaml" 2>"$W/e2" & p2=$!
"$PERFBOT" send --config "$CONFIG" 2>"$W/e3" & p3=$!
wait $p1; r1=$?
wait $p2; r2=$?
wait $p3; r3=$?
check "exit codes 0 or 75 ($r1 $r2 $r3)" [ \( $r1 = 0 -o $r1 = 75 \) -a \( $r2 = 0 -o $r2 = 75 \) -a \( $r3 = 0 -o $r3 = 75 \) ]
check "all 20 sent" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'sent'")" = 20 ]
n=0
for i in $(seq -w 1 20); do
	[ "$(count alice X-Perfbot-Report ln-$i)" = 1 ] && n=$((n + 1))
done
check "each of the 20 delivered once ($n)" [ $n = 20 ]
check "20 mails for alice in all" [ "$(imap alice "" -X 'SEARCH HEADER X-Perfbot-Report ln-' | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w)" = 20 ]
check "no side lock files" [ ! -e "$W/state.db.lock" ] && [ ! -e "$W/sym.db.lock" ]
"$PERFBOT" send --config "$W/hard.yaml" 2>"$W/e4"
check "a later send via the hard link sends nothing" grep -q "0 sent" "$W/e4"
check "integrity ok" [ "$(sql "PRAGMA integrity_check")" = ok ]
