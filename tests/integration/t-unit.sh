# Issue 29 item 9: 'check' tests what the systemd unit that runs perfbot
# will allow. A scheduler.spool_dir outside the unit's ReadWritePaths= is
# read-only under ProtectSystem=strict (a retest is then refused with
# "Read-only file system" while 'check' from a shell said ok): 'check
# --unit FILE' names it, and so does a plain 'check' when such a unit is
# installed; the unit's User= must be able to write there; and without a
# unit every path perfbot writes must exist and be writable.
mkdir "$W/st" "$W/requests"
sed -i "s#^state: .*#state: $W/st/state.db#" "$CONFIG"
printf 'scheduler:\n  backend: spool\n  spool_dir: %s/requests\n' "$W" >>"$CONFIG"
unit() {	# unit FILE [SETTING...]
	f=$1
	shift
	{
		echo "[Service]"
		echo "Type=oneshot"
		echo "ExecStart=$PERFBOT run --quiet --config $CONFIG"
		echo "ProtectSystem=strict"
		for s in "$@"; do echo "$s"; done
	} >"$f"
}
unit "$W/narrow.service" "ReadWritePaths=$W/st"
unit "$W/wide.service" "ReadWritePaths=$W/st -$W/requests"

timeout 60 "$PERFBOT" check --config "$CONFIG" >"$W/o0" 2>"$W/e0"
check "no unit: exit 0 (got $?)" [ $? = 0 ]
check "no unit: said so" grep -q "^ok: no installed systemd unit runs this configuration" "$W/o0"

timeout 60 "$PERFBOT" check --unit "$W/narrow.service" --config "$CONFIG" >"$W/o1" 2>"$W/e1"
check "narrow unit: exit 78 (got $?)" [ $? = 78 ]
check "narrow unit: the spool named, and why" grep -q "^perfbot: scheduler.spool_dir: '$W/requests': the unit $W/narrow.service does not let perfbot write there: ProtectSystem=strict makes it read-only, and it is not below one of ReadWritePaths=$W/st (change the unit, or scheduler.spool_dir)" "$W/e1"
check "narrow unit: the state is fine" sh -c "! grep -q '^perfbot: state:' '$W/e1'"
check "narrow unit: one problem" grep -q "check: 1 problem in" "$W/e1"

# installed where systemd looks: found by the config its ExecStart names
inst=/etc/systemd/system/perfbot-it-$$.service
mkdir -p /etc/systemd/system
cp "$W/narrow.service" "$inst"
timeout 60 "$PERFBOT" check --config "$CONFIG" >"$W/o2" 2>"$W/e2"
rc=$?
rm -f "$inst"
check "installed unit: exit 78 (got $rc)" [ $rc = 78 ]
check "installed unit: named" grep -q "scheduler.spool_dir: '$W/requests': the unit $inst does not let" "$W/e2"
# another config's unit is not this one's
sed "s#--config $CONFIG#--config /etc/perfbot/other.yaml#" "$W/narrow.service" >"$inst"
timeout 60 "$PERFBOT" check --config "$CONFIG" >"$W/o3" 2>"$W/e3"
rc=$?
rm -f "$inst"
check "another config's unit: not looked at (exit $rc)" [ $rc = 0 ]

timeout 60 "$PERFBOT" check --unit "$W/wide.service" --config "$CONFIG" >"$W/o4" 2>"$W/e4"
check "wide unit: exit 0 (got $?)" [ $? = 0 ]
check "wide unit: said so" grep -q "^ok: the unit $W/wide.service lets perfbot write every path it writes (2)" "$W/o4"

# the unit's user: the directories must be its to write
unit "$W/user.service" "ReadWritePaths=$W/st $W/requests" "User=nobody"
chmod 755 "$W"
timeout 60 "$PERFBOT" check --unit "$W/user.service" --config "$CONFIG" >"$W/o5" 2>"$W/e5"
check "User=nobody: exit 78 (got $?)" [ $? = 78 ]
check "User=nobody: the spool named" grep -q "scheduler.spool_dir: '$W/requests': .*its User=nobody may not write in '$W/requests' (owner 0:0, mode 0755)" "$W/e5"
check "User=nobody: the state named" grep -q "state: '$W/st': .*its User=nobody may not write in '$W/st'" "$W/e5"
chown nobody "$W/st" "$W/requests"
timeout 60 "$PERFBOT" check --unit "$W/user.service" --config "$CONFIG" >"$W/o6" 2>"$W/e6"
check "User=nobody owning them: exit 0 (got $?)" [ $? = 0 ]

# without a unit: each path perfbot writes exists and is writable
rmdir "$W/requests"
timeout 60 "$PERFBOT" check --config "$CONFIG" >"$W/o7" 2>"$W/e7"
check "spool missing: exit 78 (got $?)" [ $? = 78 ]
check "spool missing: named" grep -q "^perfbot: scheduler.spool_dir: '$W/requests': No such file or directory" "$W/e7"
