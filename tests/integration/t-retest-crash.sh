# A retest across a crash (issue 29 item 17): perfbot is killed (-9)
# while it asks the farm, after the farm added the base's runs and
# before the head was asked. The request was recorded ('asking', with
# the run counts of both roots) before the farm was asked, so the next
# run finds it under the same request id, asks again (the farm runs the
# base's once), and the retest is answered with its runs, not "did not
# finish".
mkdir -p "$W/roots"
cp -r "$TOP/fixtures/seeds/003/base" "$TOP/fixtures/seeds/003/head" "$W/roots/"
sed "s#^base: .*#base: $TOP/config/metrics.yaml#" \
	"$TOP/fixtures/seeds/003/metrics.yaml" >"$W/roots/metrics.yaml"
make_manifest rc-1 003
sed -i "s#$TOP/fixtures/seeds/003/#$W/roots/#g" "$W/manifests/rc-1.yaml"
killing_farm "$W/farm"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$W/farm", "{result_root}", "{commit}", "{runs}", "{request_id}"]
  timeout: 60
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'rc-1'")
subject=$(sql "SELECT subject FROM outbox WHERE id = 'rc-1'")
{
	printf 'From: Joanna <alice@example.test>\nTo: perfbot@example.test\n'
	printf 'Subject: Re: %s\nMessage-ID: <rc1@example.test>\n' "$subject"
	printf 'In-Reply-To: <%s>\nReferences: <%s>\n\n' "$rmid" "$rmid"
	printf "retest 4x\n"
} >"$W/rq1"
curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
	-T "$W/rq1" "smtp://127.0.0.1:$SMTP_PORT"
sleep 1
( "$PERFBOT" run --config "$CONFIG" 2>"$W/e1"; echo $? >"$W/rc1" ) 2>/dev/null
rc=$(cat "$W/rc1")
check "killed while asking (exit $rc)" [ "$rc" = 137 ]
check "the request survived the crash" [ "$(sql "SELECT status || ' ' || base_runs || ' ' || head_runs FROM requests WHERE kind = 'retest'")" = "asking 4 4" ]
check "the base's runs landed once" [ "$(wc -l <"$W/roots/base/.fake-lkp-requests")" = 1 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "the run after the crash exits 0" [ $? = 0 ]
check "one request, its counts kept" [ "$(sql "SELECT count(*) || ' ' || min(base_runs) || ' ' || min(head_runs) FROM requests WHERE kind = 'retest'")" = "1 4 4" ]
nb=$("$PERFBOT" compare "$W/roots/base" "$W/roots/head" --json | sed -n 's/^ *"base_runs": \([0-9]*\),/\1/p')
nh=$("$PERFBOT" compare "$W/roots/base" "$W/roots/head" --json | sed -n 's/^ *"head_runs": \([0-9]*\),/\1/p')
check "the farm ran each side once ($nb, $nh runs)" [ "$nb" = 8 -a "$nh" = 8 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "the retest is answered with its runs" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = done ]
set -- $(search alice In-Reply-To rc1@example.test)
check "two answers in the thread (ack, follow-up)" [ $# = 2 ]
fetch_matching alice "$W/fu.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/fu.eml" >/dev/null 2>"$W/fu.body"
check "decided on the 4 new runs a side, not 'did not finish'" grep -q "^The verdict is decided on the 4 new runs of the commit and 4 of the parent$" "$W/fu.body"
