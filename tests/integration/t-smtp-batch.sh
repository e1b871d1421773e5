# smtp.batch: at most that many mails over one connection, then a new
# one; without it every due mail goes over one connection.
conns() {	# submission connections Postfix logged so far
	grep -c '/submission/smtpd\[[0-9]*\]: connect from' "$POSTFIX_LOG"
}
for i in 1 2 3 4 5; do make_manifest sb-$i 00$((i % 5)); done
sed 's/^  timeout: 30$/  timeout: 30\n  batch: 2/' "$CONFIG" >"$W/batch.yaml"
check "batch set in the copy" grep -q '^  batch: 2$' "$W/batch.yaml"
before=$(conns)
"$PERFBOT" run --config "$W/batch.yaml" 2>"$W/err"
check "run exits 0" [ $? = 0 ]
check "all five sent" grep -q "run: 5 sent, 0 queued, 0 failed" "$W/err"
sleep 1	# postlogd writes behind
check "three connections for five mails by two" [ $(($(conns) - before)) = 3 ]
for i in 1 2 3 4 5; do
	check "sb-$i arrives once" [ "$(count alice X-Perfbot-Report sb-$i)" = 1 ]
done
# the same without batch: one connection
for i in 6 7 8; do make_manifest sb-$i 00$((i % 5)); done
before=$(conns)
"$PERFBOT" run --config "$CONFIG" 2>"$W/err2"
check "second run sends three" grep -q "run: 3 sent, 0 queued, 0 failed" "$W/err2"
sleep 1
check "one connection without batch" [ $(($(conns) - before)) = 1 ]
