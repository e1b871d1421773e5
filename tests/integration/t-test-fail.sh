# A patch that does not apply is answered with the farm's reason (its
# result_root/error, quoted), at once when the farm says so when asked,
# and later when a farm that queues (spool) writes it; a farm that never
# finishes is answered at the deadline.
mkdir -p "$W/roots" "$W/results" "$W/spool"
cp -r "$TOP/fixtures/seeds/003/base" "$TOP/fixtures/seeds/003/head" "$W/roots/"
sed "s#^base: .*#base: $TOP/config/metrics.yaml#" \
	"$TOP/fixtures/seeds/003/metrics.yaml" >"$W/roots/metrics.yaml"
make_manifest tf-1 003
sed -i "s#$TOP/fixtures/seeds/003/#$W/roots/#g" "$W/manifests/tf-1.yaml"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}", "{kind}", "{job}", "{repo}", "{ref}", "{patch}"]
  results_dir: $W/results
  timeout: 60
  deadline: 3600
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'tf-1'")
ask() {	# ask MESSAGE-ID DIRECTIVE
	{
		printf 'From: Joanna <alice@example.test>\nTo: perfbot@example.test\nSubject: Re: report\n'
		printf 'Message-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n' "$1" "$rmid" "$rmid"
		printf 'test\n\n'
		printf 'diff --git a/mm/filemap.c b/mm/filemap.c\n--- a/mm/filemap.c\n+++ b/mm/filemap.c\n'
		printf '@@ -2712,2 +2712,3 @@ ssize_t filemap_read(void)\n \tint a;\n+\t/* fake-lkp-run: %s */\n \tint b;\n' "$2"
	} | curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
		-T - "smtp://127.0.0.1:$SMTP_PORT"
	sleep 0.5
}
body_of() {	# body_of MESSAGE-ID: the text of the bot's last answer to it
	set -- $(search alice In-Reply-To "$1")
	[ $# -ge 1 ] || return 0
	fetch alice "${!#}" >"$W/a.eml"
	"$MAILCHECK" "$W/a.eml" 2>&1 >/dev/null
}
ask tf-a@example.test "does not apply"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "the run exits 0" [ $? = 0 ]
check "recorded failed" [ "$(sql "SELECT status FROM requests WHERE kind = 'test'")" = failed ]
check "with the farm's reason" [ "$(sql "SELECT detail FROM requests WHERE kind = 'test'")" = "error: patch failed: mm/filemap.c:2712
error: mm/filemap.c: patch does not apply" ]
body_of tf-a@example.test >"$W/a.txt"
check "answered: it did not apply" grep -q "could not apply your patch on" "$W/a.txt"
check "the farm's words quoted" grep -q "^> error: patch failed: mm/filemap.c:2712$" "$W/a.txt"
check "one answer only" [ "$(count alice In-Reply-To tf-a@example.test)" = 1 ]
# a farm that queues: the reason comes later
sed -i "s#^  backend: exec#  backend: spool\n  spool_dir: $W/spool#" "$CONFIG"
ask tf-b@example.test "build fails"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
rid=$(sql "SELECT request_id FROM requests WHERE kind = 'test' AND status = 'queued'")
check "queued on the spool" [ -n "$rid" ] && grep -q "^kind: \"test\"$" "$W/spool/"*
check "the spool request names the patch" grep -q "^patch: \"$W/results/$rid.patch\"$" "$W/spool/"*
body_of tf-b@example.test >"$W/b.txt"
check "acknowledged" grep -q "I queued 4 runs of this job on commit c0cef30e4f with your patch" "$W/b.txt"
printf '\n\nmm/filemap.c:2712:1: error: expected declaration\n\033[31mmake: *** Error 1\n\n' >"$W/results/$rid/error"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "the later reason ends it" [ "$(sql "SELECT status FROM requests WHERE kind = 'test' AND request_id = '$rid'")" = failed ]
body_of tf-b@example.test >"$W/b2.txt"
check "the reason answered, control characters replaced" grep -q "^> ?\[31mmake: \*\*\* Error 1$" "$W/b2.txt"
check "blank lines around it dropped" grep -q "^> mm/filemap.c:2712:1: error: expected declaration$" "$W/b2.txt"
ask tf-c@example.test "aim7.jobs-per-min *1.2"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
rid=$(sql "SELECT request_id FROM requests WHERE kind = 'test' AND status = 'queued'")
"$PERFBOT" run --config "$CONFIG" 2>"$W/e5"
check "waiting while the farm has it" [ "$(sql "SELECT status FROM requests WHERE kind = 'test' AND request_id = '$rid'")" = queued ]
check "the run says so" grep -q "tests: 0 answered, 0 failed, 0 expired, 1 waiting" "$W/e5"
"$PERFBOT" status --config "$CONFIG" >"$W/status" 2>&1
check "status shows it in flight" grep -q "request_id: $rid, report_id: tf-1, form: patch" "$W/status"
SOURCE_DATE_EPOCH=$(( $(date +%s) + 7200 )) "$PERFBOT" run --config "$CONFIG" 2>"$W/e6"
check "expired after the deadline" [ "$(sql "SELECT status FROM requests WHERE kind = 'test' AND request_id = '$rid'")" = expired ]
check "did not finish answer" fetch_matching alice "$W/c.eml" "did not finish" $(search alice In-Reply-To tf-c@example.test)
