# 'fix: SHA ("TITLE")' by mail on the real servers (issue 29 item 4):
# the record keeps the sha and the title; the maintainer applies the
# patch again, so it lands on the tracked branch under another sha; the
# next run finds it by its title, the record is 'fix landed' with the
# commit that landed, and the thread says it landed under another sha.
. tests/integration/life-lib.sh
make_manifest lt-1 003
life_repo
life_tracking
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'lt-1'")
rsub=$(sql "SELECT subject FROM outbox WHERE id = 'lt-1'")
life_mail alice@example.test lt-a@example.test "$rmid" "$rsub" 'Fixed by this one, I think.\n\nfix: DEADBEEF0123 ("aim7: take the lock once")'
life_settle 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "fix named" [ "$(life_status lt-1)" = "fix named" ]
check "with its sha and its title" [ "$(sql "SELECT fix_named FROM records WHERE report_id = 'lt-1'")" = 'deadbeef0123 ("aim7: take the lock once")' ]
check "answered" life_wait alice In-Reply-To lt-a@example.test 1
life_body alice "$W/named" "as the fix" In-Reply-To lt-a@example.test
check "the answer names both" grep -q '^I noted deadbeef0123 ("aim7: take the lock once") as the fix of this report\.' "$W/named"
life_commit "aim7: take the lock once\n\nApplied again by the maintainer.\n\nSigned-off-by: Dev <dev@example.test>\n"
sha=$(git -C "$W/repo" rev-parse master)
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "the run exits 0" [ $? = 0 ]
check "found by its title: fix landed" [ "$(life_status lt-1)" = "fix landed" ]
check "under the sha that landed" [ "$(sql "SELECT fix_commit FROM records WHERE report_id = 'lt-1'")" = "$sha" ]
check "the landing is answered" life_wait alice In-Reply-To "$rmid" 1
life_body alice "$W/landed" "has landed in master" In-Reply-To "$rmid"
check "by its title" grep -q "which names this report by its title\.$" "$W/landed"
check "under another sha than the one named" grep -q "^It landed under another sha than the one named (deadbeef0123)" "$W/landed"
