# A retest whose headline samples are constant on each side (t is
# infinite) still gets its follow-up with a verdict.
mkdir -p "$W/roots/base" "$W/roots/head" "$W/spool"
for side in base head; do
	v=1000; [ $side = head ] && v=1200
	c=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; [ $side = head ] && c=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
	printf '{"stats_source": ["r0","r1","r2","r3"], "hackbench.throughput": [%s, %s, %s, %s]}\n' $v $v $v $v >"$W/roots/$side/matrix.json"
	printf 'testcase: hackbench\ntbox_group: lkp-icl-2sp2\ncommit: %s\nhackbench:\n  mode: threads\n' $c >"$W/roots/$side/job.yaml"
done
printf 'id: k-1\nbase: { commit: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, subject: "x: base", result_root: %s }\nhead: { commit: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, subject: "x: head", author: "Dev <alice@example.test>", result_root: %s }\n' \
	"$W/roots/base" "$W/roots/head" >"$W/manifests/k-1.yaml"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}"]
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'k-1'")
printf 'From: Alice <alice@example.test>\nTo: perfbot@example.test\nSubject: Re: k\nMessage-ID: <k1@example.test>\nIn-Reply-To: <%s>\nReferences: <%s>\n\nretest 2x\n' "$rmid" "$rmid" |
	curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
		-T - "smtp://127.0.0.1:$SMTP_PORT"
sleep 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "retest done" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = done ]
set -- $(search alice In-Reply-To k1@example.test)
check "ack and follow-up" [ $# = 2 ]
fetch_matching alice "$W/k.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/k.eml" >/dev/null 2>"$W/k.body"
check "verdict for constant samples" grep -q "^Verdict: stable\.$" "$W/k.body"
