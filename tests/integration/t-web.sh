# The web archive on a real exchange of mail: a report is sent (its
# Closes: link is identity.archive_url with {report_id}, the page of the
# site), 'perfbot web' writes the site and that link's page is there; the
# author's 'retest 4x' is acknowledged and followed up, a stranger's is
# refused; the site is built again: only the report's page is made again,
# and it shows the thread (the author's command and its answers, the
# stranger's address hidden), the retest and its verdict; every page
# passes tests/golden/htmlcheck; with web.show_addresses off no address
# is left.
mkdir -p "$W/roots"
cp -r "$TOP/fixtures/seeds/003/base" "$TOP/fixtures/seeds/003/head" "$W/roots/"
make_manifest wt-1 003
sed -i "s#$TOP/fixtures/seeds/003/base#$W/roots/base#; s#$TOP/fixtures/seeds/003/head#$W/roots/head#" \
	"$W/manifests/wt-1.yaml"
sed -i 's#archive_url: .*#archive_url: "https://perf.example.test/r/{report_id}.html"#' "$CONFIG"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}"]
  timeout: 60
templates:
  dir: $TOP/templates
EOC
site="$W/site"
web() { "$PERFBOT" web --verbose --out "$site" --config "$1" 2>"$W/web.log"; }

"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "the report is sent" [ "$(sql "SELECT status FROM outbox WHERE id = 'wt-1'")" = sent ]
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'wt-1'")
subject=$(sql "SELECT subject FROM outbox WHERE id = 'wt-1'")
set -- $(search alice Message-ID "$rmid")
fetch alice "$1" >"$W/report.eml"
"$MAILCHECK" "$W/report.eml" >/dev/null 2>"$W/report.body"
check "its Closes: link is the site's page" \
	grep -q "^| Closes: https://perf.example.test/r/wt-1.html$" "$W/report.body"
web "$CONFIG"
check "perfbot web builds the site" [ $? = 0 ]
check "the Closes: link's page is there" [ -f "$site/r/wt-1.html" ]
check "the index lists it" grep -q 'href="r/wt-1.html"' "$site/index.html"
check "it says the mail was sent" grep -q "<dd>sent <time" "$site/r/wt-1.html"

mail_to_bot() {	# mail_to_bot FROM-ADDRESS NAME MESSAGE-ID BODY
	{
		printf 'From: %s <%s>\nTo: perfbot@example.test\n' "$2" "$1"
		printf 'Subject: Re: %s\nMessage-ID: <%s>\n' "$subject" "$3"
		printf 'In-Reply-To: <%s>\nReferences: <%s>\n\n%s\n' "$rmid" "$rmid" "$4"
	} >"$W/mail"
	curl -s --mail-from "$1" --mail-rcpt perfbot@example.test \
		-T "$W/mail" "smtp://127.0.0.1:$SMTP_PORT"
}
mail_to_bot alice@example.test Alice wq1@example.test "retest 4x"
mail_to_bot mallory@elsewhere.test Mallory wq2@elsewhere.test "retest 20x"
sleep 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "the retest is done" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = done ]
old=$(stat -c %i "$site/status.html")
web "$CONFIG"
check "the second build" [ $? = 0 ]
check "only the report's page is made again" grep -q "(1 pages made, 0 kept)" "$W/web.log"
page="$site/r/wt-1.html"
check "the page shows the command" grep -q "<li><code>retest 4x</code></li>" "$page"
check "who sent it (a recipient)" grep -q "UTC</time>: alice@example.test</h3>" "$page"
check "its answer" grep -q "I queued 4 more runs of this job" "$page"
check "the retest's verdict" grep -q "<p>Verdict: stable. (request rt-" "$page"
check "the follow-up" grep -q "^Verdict: stable\.$" "$page"
check "the stranger's address hidden" grep -q "UTC</time>: \[address hidden\]</h3>" "$page"
check "and nowhere" sh -c '! grep -rq "mallory@elsewhere.test" "$1/"' sh "$site"
check "the status: retested" grep -q "retested: stable" "$site/index.html"
check "every page is well formed" sh -c 'python3 "$1/tests/golden/htmlcheck" "$2" >"$3"' sh "$TOP" "$site" "$W/htmlcheck"
check "the tables are the mail's" sh -c 'python3 "$1/tests/golden/webcheck" "$2" >"$3"' sh "$TOP" "$site" "$W/webcheck"
sed 's/^limits:/web: {show_addresses: false}\nlimits:/' "$CONFIG" >"$W/hidden.yaml"
web "$W/hidden.yaml"
check "a build with web.show_addresses: false" [ $? = 0 ]
check "it makes every page again" grep -q "(1 pages made, 0 kept)" "$W/web.log"
check "no address is left" sh -c '! grep -rqE "(^|[^-a-z0-9.])(alice|perf-reports|perfbot)@example\.test" "$1/"' sh "$site"
check "the Message-ID is still there" grep -q "&lt;$rmid&gt;" "$page"
