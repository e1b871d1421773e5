# Issue 25 items 7 and 12: a full disk never sends a mail twice: room for
# the records of what the server takes is kept before sending, the record
# of a mail the server took while the disk filled up is written in it,
# and sending stops with one error line (74). Needs root (a small tmpfs).
sqlite_only "the reserve of room is kept beside SQLite's file" || return 0
if [ "$(id -u)" != 0 ] || ! command -v mount >/dev/null; then
	echo "$SUITE_NAME: skipped: t-disk-full needs root to mount a small tmpfs"
else
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
fx_setup "$PORT"
D="$W/disk"
mkdir -p "$D"
mount -t tmpfs -o size=3m tmpfs "$D"
sed -i "s#^state: .*#state: $D/state.db#" "$CONFIG"
W0=$W
dsql() { sqlite3 "$D/state.db" "$1"; }
make_manifest f-1
make_manifest f-2
printf 'wait eod\n' >"$S/script"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err" &
p=$!
for i in $(seq 1 100); do grep -q "waiting at eod" "$S/log" 2>/dev/null && break; sleep 0.1; done
check "the reserve is kept before sending" [ -f "$D/.state.db.reserve" ]
dd if=/dev/zero of="$D/fill" bs=4k >/dev/null 2>&1
touch "$S/go"
wait $p
rc=$?
check "disk full after the 250: exit 74 (got $rc)" [ $rc = 74 ]
check "... the mail the server took is recorded sent" [ "$(dsql "SELECT count(*) FROM outbox WHERE status = 'sent'")" = 1 ]
check "... one error line, saying the disk is full" [ "$(grep -c 'perfbot: .*disk is full' "$W/err")" = 1 ]
check "... the batch stopped: one mail went" [ "$(wc -l <"$S/accepted")" = 1 ]
rm -f "$S/go"
: >"$S/script"
dd if=/dev/zero of="$D/fill2" bs=4k >/dev/null 2>&1
"$PERFBOT" send --now --config "$CONFIG" >"$W/out" 2>"$W/err2"
rc=$?
check "still full, no room kept: nothing sent, exit 74 (got $rc)" [ $rc = 74 ]
check "... says so, one line" [ "$(grep -cE 'perfbot: .*(no room kept for the records|the disk is full)' "$W/err2")" = 1 ]
check "... nothing sent twice" [ "$(wc -l <"$S/accepted")" = 1 ]
rm -f "$D/fill" "$D/fill2"
"$PERFBOT" send --now --config "$CONFIG" >"$W/out" 2>"$W/err3"
check "room again: the other goes, none twice" [ "$(wc -l <"$S/accepted")" = 2 ] && [ "$(cut -d' ' -f5 "$S/accepted" | sort | uniq -d)" = "" ]
check "both recorded sent" [ "$(dsql "SELECT count(*) FROM outbox WHERE status = 'sent'")" = 2 ]
umount "$D"
fi
