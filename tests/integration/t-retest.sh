# The whole loop: report sent -> the developer replies "retest 4x" -> the
# acknowledgement in thread -> the fake scheduler adds 4 runs to both result
# roots -> perfbot run -> the follow-up in the same thread, with N+4 values
# per commit and a verdict.
mkdir -p "$W/roots"
cp -r "$TOP/fixtures/seeds/003/base" "$TOP/fixtures/seeds/003/head" "$W/roots/"
# the seed's era rules, their base named absolutely
sed "s#^base: .*#base: $TOP/config/metrics.yaml#" \
	"$TOP/fixtures/seeds/003/metrics.yaml" >"$W/roots/metrics.yaml"
make_manifest rt-1 003
sed -i "s#$TOP/fixtures/seeds/003/#$W/roots/#g" "$W/manifests/rt-1.yaml"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}"]
  timeout: 60
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'rt-1'")
subject=$(sql "SELECT subject FROM outbox WHERE id = 'rt-1'")

{
	printf 'From: Joanna <alice@example.test>\nTo: perfbot@example.test\n'
	printf 'Subject: Re: %s\nMessage-ID: <rq1@example.test>\n' "$subject"
	printf 'In-Reply-To: <%s>\nReferences: <%s>\n\n' "$rmid" "$rmid"
	printf "I'm a bit suspicious of this result.\n\nretest 4x\n"
} >"$W/rq1"
curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
	-T "$W/rq1" "smtp://127.0.0.1:$SMTP_PORT"
sleep 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "run with the request exits 0" [ $? = 0 ]
# the fake farm runs at once, so the follow-up may come in the same run
status=$(sql "SELECT status FROM requests WHERE kind = 'retest'")
check "retest queued ($status)" [ "$status" = queued -o "$status" = done ]
base_runs=$(sql "SELECT base_runs FROM requests WHERE kind = 'retest'")
check "run counts recorded" [ "$base_runs" = 4 ]
runs_now=$("$PERFBOT" compare "$W/roots/base" "$W/roots/head" --json | sed -n 's/^ *"base_runs": \([0-9]*\),/\1/p')
check "4 runs were added to the base ($runs_now)" [ "$runs_now" = $((base_runs + 4)) ]
set -- $(search alice In-Reply-To rq1@example.test)
check "ack in thread" [ $# -ge 1 ]
fetch_matching alice "$W/ack.eml" "will answer in this thread" "$@"
"$MAILCHECK" "$W/ack.eml" >/dev/null 2>"$W/ack.body"
check "ack names both commits" grep -q "commit c0cef30e4f and its" "$W/ack.body"
check "ack names the parent" grep -q "parent 3da90b159b" "$W/ack.body"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "follow-up run exits 0" [ $? = 0 ]
check "retest done" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = done ]
set -- $(search alice In-Reply-To rq1@example.test)
check "two answers in the thread (ack, follow-up)" [ $# = 2 ]
fetch_matching alice "$W/fu.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/fu.eml" >"$W/fu.check" 2>"$W/fu.body"
# the longer Message-IDs fold the header: any folding white space
check "follow-up References the report" grep -Eq "^header References: <$rmid>[[:space:]]+<rq1@example.test>" "$W/fu.check"
n=$(awk '/^c0cef30e4ff0dc025f4a1660b8f0ba43ed58426e:$/ { on = 1; next } on && /^\]/ { exit } on && /^  [0-9]/ { c++ } END { print c + 0 }' "$W/fu.body")
check "N+4 values for the commit ($n)" [ "$n" = $((base_runs + 4)) ]
n=$(awk '/^3da90b159b146672f830bcd2489dd3a1f4e9e089:$/ { on = 1; next } on && /^\]/ { exit } on && /^  [0-9]/ { c++ } END { print c + 0 }' "$W/fu.body")
check "N+4 values for the parent ($n)" [ "$n" = $((base_runs + 4)) ]
check "a verdict" grep -q "^Verdict: stable\.$" "$W/fu.body"
check "p-values shown" grep -q "Welch's t-test" "$W/fu.body"
check "the table is updated" grep -q "aim7.jobs-per-min$" "$W/fu.body"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
set -- $(search alice In-Reply-To rq1@example.test)
check "no third answer" [ $# = 2 ]
check "the verdict is decided on the new runs alone" grep -q "^The verdict is decided on the 4 new runs of the commit and 4 of the parent$" "$W/fu.body"
