# Issue 29 item 8: a metric table kept beside the manifests, that starts
# from another ('base: FILE') and adds to a list, is no manifest: the
# shape decides (a manifest's 'base' is a mapping), not the file's name.
# 'check' and 'run' leave it alone (a debug line with --verbose), and the
# manifest that names it as its 'metrics' is mailed with it.
S="$TOP/fixtures/seeds/000"
sed -n "s#^\(base: .*result_root: \)base }\$#\1$S/base }#p" "$S/manifest.yaml" >"$W/sides"
sed -n "s#^\(head: .*result_root: \)head }\$#\1$S/head }#p" "$S/manifest.yaml" |
	sed 's/author: "[^"]*"/author: "Dev <alice@example.test>"/' >>"$W/sides"
{ echo "id: mt-1"; cat "$W/sides"; echo "metrics: rules.yaml"; } >"$W/manifests/a.yaml"
# the seed's own table, as an operator keeps it: two names, one shape
{ echo "base: $TOP/config/metrics.yaml"; echo "report_allowlist_add:"; echo "  - foo.bar"; } >"$W/manifests/rules.yaml"
cp "$W/manifests/rules.yaml" "$W/manifests/metrics.yaml"
# a broken manifest is still one, whatever its name: a 'base' mapping
{ echo "base: { commit: abc }"; echo "report_allowlist_add: [x]"; } >"$W/b-metrics.yaml"

timeout 120 "$PERFBOT" check --config "$CONFIG" >"$W/cout" 2>"$W/cerr"
check "check: exit 0 (got $?)" [ $? = 0 ]
check "check: no table named" sh -c "! grep -qE 'rules.yaml|metrics.yaml' '$W/cerr'"
timeout 120 "$PERFBOT" run --verbose --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "run: exit 0 (got $rc)" [ $rc = 0 ]
check "run: no unknown key" sh -c "! grep -q 'unknown key' '$W/err'"
for f in rules metrics; do
	check "run: $f.yaml left alone, said with --verbose" grep -q "$f.yaml: not a manifest (its 'base' is a string, as a metric table's; a manifest's is a mapping): skipped" "$W/err"
done
check "run: the manifest mailed" [ "$(sql "SELECT status FROM outbox WHERE id = 'mt-1'")" = sent ]
check "run: the author has it" [ "$(count alice X-Perfbot-Report mt-1)" = 1 ]
timeout 120 "$PERFBOT" run --config "$CONFIG" >"$W/out2" 2>"$W/err2"
check "run again: exit 0, nothing said (got $?)" sh -c "[ $? = 0 ] && ! grep -q 'metrics.yaml' '$W/err2'"
cp "$W/b-metrics.yaml" "$W/manifests/"
timeout 120 "$PERFBOT" check --config "$CONFIG" >"$W/cout3" 2>"$W/cerr3"
check "check: a manifest's shape named metrics is checked (exit $?)" sh -c "[ $? = 65 ] && grep -q 'b-metrics.yaml.*unknown key' '$W/cerr3'"
