# Issue 29 item 18: 'perfbot web --out DIR' touches only what its builds
# made (recorded in DIR.builds): a user's DIR.2024/keep.txt and a file
# DIR.7 beside DIR survive every build.
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
fx_setup "$PORT"
make_manifest w-1
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err0"
mkdir -p "$W/pub/site.2024"
echo mine >"$W/pub/site.2024/keep.txt"
echo mine >"$W/pub/site.7"
for i in 1 2 3; do
	"$PERFBOT" web --out "$W/pub/site" --config "$CONFIG" >"$W/out" 2>"$W/err$i"
	rc=$?
	check "build $i: exit 0 (got $rc)" [ $rc = 0 ]
done
check "the site is there" [ -f "$W/pub/site/index.html" ]
check "the user's site.2024/keep.txt is kept" [ "$(cat "$W/pub/site.2024/keep.txt" 2>/dev/null)" = mine ]
check "the user's file site.7 is kept" [ "$(cat "$W/pub/site.7" 2>/dev/null)" = mine ]
check "one tree of the builds' is left" [ "$(ls "$W/pub" | grep -c '^site\.[0-9]*$')" = 3 ]
