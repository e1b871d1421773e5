# 'make install PREFIX=...' after a plain 'make': the installed binary finds
# its data beside it from any directory, and the installed example config
# names only installed files.
make --no-print-directory -C "$TOP" install PREFIX="$W/x" >"$W/install.log" 2>&1
check "make install PREFIX=" [ $? = 0 ]
R="$TOP/fixtures/seeds/004"
(cd / && "$W/x/bin/perfbot" compare "$R/base" "$R/head") >"$W/out" 2>"$W/err"
check "installed compare works from /" [ $? = 0 ]
check "it prints the table" grep -q "hackbench.throughput" "$W/out"
(cd "$TOP" && ./perfbot compare "$R/base" "$R/head") | cmp -s - "$W/out"
check "same table as the build tree's" [ $? = 0 ]
(cd / && "$W/x/bin/perfbot" report "$TOP/fixtures/manifests/hackbench-pipe.yaml" --dry-run --config "$W/x/share/perfbot/config/perfbot.yaml") >"$W/mail" 2>"$W/err"
check "installed report works from /" [ $? = 0 ]
mkdir -p "$W/h"
(cd / && HOME="$W/h" "$W/x/bin/perfbot" check --config "$W/x/share/perfbot/config/perfbot.yaml") >"$W/out" 2>"$W/err"
check "installed example config passes check" [ $? = 0 ]
check "its templates are the installed ones" grep -q "^ok: templates '$W/x/share/perfbot/templates'" "$W/out"
check "its metric table is the installed one" grep -q "^ok: metric table '$W/x/share/perfbot/config/metrics.yaml'" "$W/out"
mv "$W/x/share/perfbot" "$W/x/share/moved"
# (unless the build's own PREFIX holds a copy, which would be found)
if [ ! -e /usr/local/share/perfbot/config/metrics.yaml ]; then
	(cd / && env -u PERFBOT_DATADIR "$W/x/bin/perfbot" compare "$R/base" "$R/head") >/dev/null 2>"$W/err"
	check "data missing: exit 66" [ $? = 66 ]
	check "it lists where it looked" grep -q "config/metrics.yaml: not found in .*$W/x/share/perfbot" "$W/err"
	check "and how to point elsewhere" grep -q "set PERFBOT_DATADIR or --metrics FILE" "$W/err"
fi
(cd / && PERFBOT_DATADIR="$W/x/share/moved" "$W/x/bin/perfbot" compare "$R/base" "$R/head") >/dev/null 2>&1
check "PERFBOT_DATADIR points elsewhere" [ $? = 0 ]
