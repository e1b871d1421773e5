# Issue 34's soak, short (tests/soak/lib.sh; 'make soak' is the long one):
# three 'perfbot run' loops on one throw-away PostgreSQL, a killer that
# SIGKILLs one of them every 0.5-3 s, 60 reports fed in batches and 20
# 'retest 2x' replies from the author to the mailed reports: every report
# is mailed, none under two Message-IDs, every reply answered once. Then
# the counter itself: a made-up mailbox with a report missing and one
# mailed under two Message-IDs fails.
# (It starts a PostgreSQL of its own: the SQLite suite's run is enough.)
sqlite_only "the soak starts a PostgreSQL of its own; the SQLite suite runs it" || return 0
. "$TOP/tests/soak/lib.sh"
soak_main 60 20 3 postgresql 150 >"$W/soak.out"
cat "$W/soak.out"
check "soak: 60 reports mailed" [ "${SOAK_MAILED:-}" = 60 ]
check "soak: no report lost" [ "${SOAK_LOST:-}" = 0 ]
check "soak: none mailed under two Message-IDs" [ "${SOAK_TWOIDS:-}" = 0 ]
check "soak: 20 replies answered" [ "${SOAK_ANSWERED:-}" = 20 ]
check "soak: none answered twice" [ "${SOAK_ANSWERED2:-}" = 0 ]
check "soak: instances were SIGKILLed (${SOAK_KILLS:-0})" [ "${SOAK_KILLS:-0}" -ge 1 ]
check "soak: no run ended otherwise than 0, 75 or killed" [ "${SOAK_OTHER:-}" = 0 ]
check "soak: says PASS" grep -q "; PASS$" "$W/soak.out"
if [ -s "$SK/mails" ]; then
	# the counter: one report missing, another under a second Message-ID
	awk '$1 == "r" && !gone { gone = 1; next }
		$1 == "r" && !twice { twice = 1; print; print "r", "another-" $2, $3; next }
		{ print }' "$SK/mails" >"$SK/mails.bad"
	mv "$SK/mails.bad" "$SK/mails"
	soak_count 0 0 >"$W/soak-bad.out"
	check "counter: a report missing is lost" [ "$SOAK_LOST" = 1 ]
	check "counter: a second Message-ID is counted" [ "$SOAK_TWOIDS" = 1 ]
	check "counter: says FAIL" grep -q "; FAIL$" "$W/soak-bad.out"
fi
soak_cleanup
