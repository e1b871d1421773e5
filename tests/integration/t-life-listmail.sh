# Text of list mail that is no command, through the real servers (issue
# 29 item 5; written for this test in the shapes of real mails): a merge
# fixup's combined diff with Kconfig's "help", Kconfig pasted without a
# diff, a wrapped line of prose that starts with "fix: https://...", a
# commit message as git log indents it, a shell line's last word,
# "Test 30", shell's "test ... || {", and a "Test" under an attribution
# "30.09.2017, 18.30, ...:". Each is a reply of the report's author; none
# is answered, nothing changes; a real command after them still is.
. tests/integration/life-lib.sh
make_manifest lm-1 003
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'lm-1'")
rsub=$(sql "SELECT subject FROM outbox WHERE id = 'lm-1'")
k=0
for body in \
	'the merge needed this:\n\ndiff --cc drivers/foo/Kconfig\nindex 1111111,2222222..3333333\n--- a/drivers/foo/Kconfig\n+++ b/drivers/foo/Kconfig\n@@@ -10,6 -10,7 +10,8 @@@ config FOO\n  \tbool "Foo"\n ++\tselect BAZ\n  \thelp\n  \t  Say Y here.\n\nCheers' \
	'The new symbol reads:\n\nconfig FOO_BAR\n\tbool "Foo bar"\n\thelp\n\t  Enables foo bar.\n' \
	'This looks like the problem that was reported earlier in the thread at\nfix: https://lore.example.test/r/20240101.abc@example.test/ which\nwas never merged.' \
	'commit 0123456789abcdef0123456789abcdef01234567\nAuthor: Dev <dev@example.test>\n\n    foo: do it\n\n    Fix: the thing was broken\n    test\n' \
	'I built it with\n\n  make -C tools/perf O=/tmp/build \\\\\n    test\n\nand it failed.' \
	'Test 30\n\nIt passes now.' \
	'The script does:\n\ntest /sys/kernel/debug/foo || {\n\techo gone\n}' \
	'Thanks!\n\n30.09.2017, 18.30, "Sam - Doe" <sam@example.test>:\nTest\n\nthe rest'; do
	k=$((k + 1))
	life_mail alice@example.test "lm-$k@example.test" "$rmid" "$rsub" "$body"
done
life_settle $k
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "the run exits 0" [ $? = 0 ]
check "all $k read" [ "$(sql "SELECT count(*) FROM inbox WHERE message_id LIKE 'lm-%'")" = $k ]
check "no command taken from any" [ "$(sql "SELECT count(*) FROM inbox WHERE message_id LIKE 'lm-%' AND commands IS NOT NULL AND commands NOT IN ('', '[]')")" = 0 ]
sleep 1
check "nothing answered to the author" [ "$(count alice In-Reply-To "lm-")" = 0 ]
check "nothing queued" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'answer'")" = 0 ]
check "the record as it was" [ "$(life_status lm-1)" = open ]
life_mail alice@example.test lm-real@example.test "$rmid" "$rsub" 'The kconfig reads\n\n\thelp\n\t  Foo.\n\ninvalid: the base kernel was misconfigured'
life_settle $((k + 1))
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "a command below such text still counts" [ "$(life_status lm-1)" = invalid ]
# near-misses: answered to their sender alone with the form meant
life_mail alice@example.test lm-bare@example.test "$rmid" "$rsub" 'fix:\n\nthe one in the other thread'
life_mail alice@example.test lm-typo@example.test "$rmid" "$rsub" 'Odd.\n\nretset 3x'
life_settle $((k + 3))
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "near-misses: the run exits 0" [ $? = 0 ]
for m in bare:'fix: TITLE or SHA' typo:'retest 3x'; do
	check "lm-${m%%:*}: answered" life_wait alice In-Reply-To "lm-${m%%:*}@example.test" 1
	life_body alice "$W/${m%%:*}" "Did you mean" In-Reply-To "lm-${m%%:*}@example.test"
	check "lm-${m%%:*}: with the form meant" grep -qF "Did you mean \"${m#*:}\"?" "$W/${m%%:*}"
	check "lm-${m%%:*}: to the sender alone" sh -c "! grep -q '^header Cc:' '$W/${m%%:*}.check'"
done
check "no retest asked" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest'")" = 0 ]
