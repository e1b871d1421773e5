# "test REPO BRANCH" and "test COMMIT": the tree is handed to the farm as
# it is (kind test, repo, ref, no patch); a repository commands.test_repos
# does not list, a file: or ssh: one, a ref that would be an option of
# git, are refused before the farm is asked; a stranger's test is refused.
mkdir -p "$W/roots" "$W/results"
cp -r "$TOP/fixtures/seeds/003/base" "$TOP/fixtures/seeds/003/head" "$W/roots/"
sed "s#^base: .*#base: $TOP/config/metrics.yaml#" \
	"$TOP/fixtures/seeds/003/metrics.yaml" >"$W/roots/metrics.yaml"
make_manifest tt-1 003
sed -i "s#$TOP/fixtures/seeds/003/#$W/roots/#g" "$W/manifests/tt-1.yaml"
# what the fake farm's git server has: the branch does nothing for aim7
printf 'perf-fix aim7.jobs-per-min *1.0\n' >"$W/results/fake-lkp-trees"
printf '%s\n' '#!/bin/sh' "printf '%s\\n' \"\$@\" >>'$W/farm-args'" \
	"exec '$TOP/scripts/fake-lkp-run' \"\$@\"" >"$W/farm"
chmod +x "$W/farm"
sed -i 's/^commands:$/commands:\n  test_repos: ["https:\/\/git.example.test\/*"]/' "$CONFIG"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$W/farm", "{result_root}", "{commit}", "{runs}", "{request_id}", "{kind}", "{job}", "{repo}", "{ref}", "{patch}"]
  results_dir: $W/results
  timeout: 60
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'tt-1'")
ask() {	# ask FROM MESSAGE-ID BODY
	printf 'From: %s\nTo: perfbot@example.test\nSubject: Re: report\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n%s\n' "$1" "$2" "$rmid" "$rmid" "$3" |
		curl -s --mail-from "$(echo "$1" | sed 's/.*<\(.*\)>/\1/')" --mail-rcpt perfbot@example.test \
			-T - "smtp://127.0.0.1:$SMTP_PORT"
	sleep 0.5
}
body_of() {	# body_of USER MESSAGE-ID: the text of the bot's last answer to it
	set -- "$1" $(search "$1" In-Reply-To "$2")
	[ $# -ge 2 ] || return 0
	fetch "$1" "${!#}" >"$W/a.eml"
	"$MAILCHECK" "$W/a.eml" 2>&1 >/dev/null
}
ask "Joanna <alice@example.test>" tt-a@example.test "Please re-test with this branch:

test https://git.example.test/linux.git perf-fix"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "the tree test is recorded" [ "$(sql "SELECT form || ' ' || repo || ' ' || ref FROM requests WHERE kind = 'test'")" = "tree https://git.example.test/linux.git perf-fix" ]
check "the farm got kind test, the repo, the ref and no patch" [ "$(sed -n '5p;7p;8p;9p' "$W/farm-args" | tr '\n' '|')" = "test|https://git.example.test/linux.git|perf-fix||" ]
check "and the head's job" grep -q "^$W/roots/head/job.yaml$" "$W/farm-args"
body_of alice tt-a@example.test >"$W/a.txt"
check "the ack names the tree" grep -q "https://git.example.test/linux.git at perf-fix" "$W/a.txt"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "done: not fixed" [ "$(sql "SELECT status || ': ' || detail FROM requests WHERE kind = 'test'")" = "done: not fixed" ]
set -- $(search alice In-Reply-To tt-a@example.test)
fetch_matching alice "$W/fu.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/fu.eml" >/dev/null 2>"$W/fu.body"
check "the follow-up: not fixed" grep -q "^Verdict: not fixed\.$" "$W/fu.body"
check "the tested column is the branch" grep -q '("perf-fix at https://git.example.test/linux.git")' "$W/fu.body"
: >"$W/farm-args"
ask "Joanna <alice@example.test>" tt-b@example.test "test 3da90b159b146672f830bcd2489dd3a1f4e9e089 6x"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "the commit test: 6 runs of that commit of the reported tree" [ "$(sql "SELECT runs || ' ' || commit_sha || ' ' || ref FROM requests WHERE kind = 'test' AND form = 'commit'")" = "6 3da90b159b146672f830bcd2489dd3a1f4e9e089 3da90b159b146672f830bcd2489dd3a1f4e9e089" ]
check "the farm got the reported tree's repository" grep -q "^https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git$" "$W/farm-args"
: >"$W/farm-args"
n0=$(sql "SELECT count(*) FROM requests WHERE kind = 'test'")
ask "Joanna <alice@example.test>" tt-c@example.test "test https://evil.example.test/linux.git perf-fix"
ask "Joanna <alice@example.test>" tt-d@example.test "test file:///etc master"
ask "Joanna <alice@example.test>" tt-e@example.test "test ssh://git.example.test/linux.git master"
ask "Joanna <alice@example.test>" tt-f@example.test "test https://git.example.test/linux.git --upload-pack=touch"
ask "Joanna <alice@example.test>" tt-g@example.test "test https://git.example.test/../../etc/x.git master"
ask "Joanna <alice@example.test>" tt-h@example.test "test https://user:pw@git.example.test/linux.git master"
ask "Joanna <alice@example.test>" tt-i@example.test "test https://git.example.test/linux.git"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
check "no hostile test reached the farm" [ ! -s "$W/farm-args" ]
check "none recorded" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'test'")" = "$n0" ]
body_of alice tt-c@example.test >"$W/c.txt"
check "a repository not listed: refused" grep -q "is not one this robot may fetch" "$W/c.txt"
body_of alice tt-d@example.test >"$W/d.txt"
check "file: refused" grep -q "I fetch only https:// and git:// repositories" "$W/d.txt"
body_of alice tt-e@example.test >"$W/e.txt"
check "ssh: refused" grep -q "I fetch only https:// and git:// repositories" "$W/e.txt"
body_of alice tt-f@example.test >"$W/f.txt"
check "a ref that is an option: refused" grep -q "is not one I hand to git" "$W/f.txt"
body_of alice tt-g@example.test >"$W/g.txt"
check "'..' refused" grep -q "is not a plain URL" "$W/g.txt"
body_of alice tt-h@example.test >"$W/h.txt"
check "a user in the URL refused" grep -q "is not a plain URL" "$W/h.txt"
body_of alice tt-i@example.test >"$W/i.txt"
check "no branch: the forms are shown" grep -q "^  - test REPO BRANCH: a tree as it is" "$W/i.txt"
check "refusals go to the sender alone" [ "$(sql "SELECT recipients FROM outbox WHERE kind = 'answer' ORDER BY rowid DESC LIMIT 1")" = '["alice@example.test"]' ]
ask "Mallory <mallory@example.test>" tt-j@example.test "test https://git.example.test/linux.git perf-fix"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e5"
check "a stranger's test is not run" [ ! -s "$W/farm-args" ]
check "a stranger's test is refused" [ "$(sql "SELECT outcome FROM inbox WHERE message_id = 'tt-j@example.test'")" = refused ]
"$PERFBOT" status --json --config "$CONFIG" >"$W/status.json" 2>&1
check "status --json has the tests list" grep -q '"tests": \[' "$W/status.json"
