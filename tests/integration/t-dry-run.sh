# --dry-run prints every mail it would send and changes nothing.
make_manifest d-1 000
make_manifest d-2 004
"$PERFBOT" run --dry-run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "exit 0" [ $? = 0 ]
check "two mbox entries" [ "$(grep -c '^From perfbot@example.test ' "$W/out")" = 2 ]
check "no state created" no_state
check "nothing sent" [ "$(count alice X-Perfbot-Report d-1)" = 0 ]
check "no password in output" sh -c "! grep -q perfbot-pw '$W/out' '$W/err'"
# A patch report keeps the patch's To and Cc whole whatever
# recipients.max_cc (issue 31): lists and people alike.
sed -e "s#\.\./seeds/#$TOP/fixtures/seeds/#" \
	-e 's#^  cc: .*#  cc: [linux-fsdevel@vger.kernel.org, "Jan <jan@example.test>", linux-kernel@vger.kernel.org, linux-mm@kvack.org, "Ann <ann@example.test>", linux-xfs@vger.kernel.org]#' \
	"$TOP/fixtures/patch/pipe-v4.yaml" >"$W/patch.yaml"
printf 'recipients:\n  max_cc: 1\n' >"$W/cap.yaml"
"$PERFBOT" report "$W/patch.yaml" --dry-run --config "$W/cap.yaml" >"$W/pout" 2>"$W/perr"
check "patch report printed" [ $? = 0 ]
for l in linux-fsdevel@vger.kernel.org linux-kernel@vger.kernel.org linux-mm@kvack.org linux-xfs@vger.kernel.org; do
	check "the patch's list $l kept" sh -c "sed -n '/^Cc:/,/^[A-Z]/p' '$W/pout' | grep -q '$l'"
done
for p in brauner@example.test jan@example.test ann@example.test; do
	check "the patch's person $p kept" sh -c "sed -n '/^Cc:/,/^[A-Z]/p' '$W/pout' | grep -q '$p'"
done
check "no cap named on stderr" sh -c "! grep -q 'leaves out' '$W/perr'"
# Issue 21 item 12: what a preview does not show is said, not implied.
"$PERFBOT" run --dry-run --config "$CONFIG" >"$W/out2" 2>"$W/err2"
check "dry-run says replies are not read" grep -q "run --dry-run: printed the new reports and the queued mail; replies were not read" "$W/err2"
