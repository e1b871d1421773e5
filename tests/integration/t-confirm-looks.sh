# Confirmation look by look: a change held on 3 runs a side gets the
# first look's 3 more; undecided there (Welch's p 0.012 over all 6 runs,
# between the bounds), perfbot asks for the next look's 2 more under a
# request of its own, and the 8 runs a side decide it: confirmed, mailed
# once. The fixed rule asked for 13 a side at once.
. tests/integration/confirm-lib.sh
B=a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7
H=a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8a8
confirm_roots "$W/roots" $B $H "1000 1010 990" "1030 1040 1020"
confirm_manifest cf-looks "$W/roots" $B $H
mkdir -p "$W/spool"
cat >>"$CONFIG" <<EOC
confirm: {enabled: true}
scheduler:
  backend: spool
  spool_dir: $W/spool
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "first run exits 0" [ $? = 0 ]
check "held, asked" [ "$(sql "SELECT status FROM requests WHERE kind = 'confirm' AND report_id = 'cf-looks'")" = queued ]
check "the first look: 3 runs a side" [ "$(sql "SELECT runs FROM requests WHERE kind = 'confirm' AND report_id = 'cf-looks'")" = 3 ]
check "a request per commit" [ "$(ls "$W/spool" | wc -l)" = 2 ]
# the farm: the first look's runs, not enough to decide
confirm_roots "$W/roots" $B $H "1000 1010 990 1012 985 1003" "1030 1040 1020 1008 1022 1000"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "second run exits 0" [ $? = 0 ]
check "the next look asked ($(sql "SELECT status, runs, request_id FROM requests WHERE kind = 'confirm'"))" \
	[ "$(sql "SELECT status || ' ' || runs || ' ' || request_id FROM requests WHERE kind = 'confirm' AND report_id = 'cf-looks'")" = "queued 5 confirm-cf-looks-5" ]
check "two more requests" [ "$(ls "$W/spool" | wc -l)" = 4 ]
check "each asks for the 2 runs the look lacks" sh -c "grep -l 'confirm-cf-looks-5' '$W/spool'/* | wc -l | grep -qx 2"
check "nothing queued while undecided" [ "$(sql "SELECT count(*) FROM outbox WHERE id = 'cf-looks'")" = 0 ]
confirm_roots "$W/roots" $B $H "1000 1010 990 1012 985 1003 998 1006" "1030 1040 1020 1008 1022 1000 1034 1040"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "third run exits 0" [ $? = 0 ]
check "confirmed at the second look" [ "$(sql "SELECT status || ': ' || verdict FROM requests WHERE kind = 'confirm' AND report_id = 'cf-looks'")" = "done: confirmed" ]
check "the line says by how many" sql_pipe "SELECT detail FROM requests WHERE kind = 'confirm'" "grep -q '^confirmed by 5 more runs of the parent and 5 of the commit: over all 8 and 8 runs'"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
set -- $(search alice Subject "a8a8a8a8a8")
check "mailed once" [ $# = 1 ]
# issue 32 item 5: the decided confirmation's runs are learned (8 and 8
# runs, each about its own mean: 14 degrees of freedom), and the next
# report of that benchmark on that machine, as quiet, is held for the
# first look its learned noise calls for: 1 run a side, not 3
check "the confirmation's runs are learned" [ "$(sql "SELECT testcase || ' ' || machine || ' ' || metric || ' ' || df FROM noise")" = "hackbench lkp-icl-2sp2 hackbench.throughput 14" ]
B2=b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7
H2=b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8
confirm_roots "$W/roots2" $B2 $H2 "1000 1010 990" "1030 1040 1020"
confirm_manifest cf-quiet "$W/roots2" $B2 $H2
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
check "the next one is held" [ "$(sql "SELECT status FROM requests WHERE kind = 'confirm' AND report_id = 'cf-quiet'")" = queued ]
check "its first look: 1 run a side, as its learned noise calls for" [ "$(sql "SELECT runs FROM requests WHERE kind = 'confirm' AND report_id = 'cf-quiet'")" = 1 ]
check "the first look is kept with it" [ "$(sql "SELECT thread FROM requests WHERE kind = 'confirm' AND report_id = 'cf-quiet'")" = '{"confirm":{"first":4}}' ]
confirm_roots "$W/roots2" $B2 $H2 "1000 1010 990 1004" "1030 1040 1020 1036"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e5"
check "undecided at 4 runs a side, the next look asks for 6 in all" [ "$(sql "SELECT status || ' ' || runs || ' ' || request_id FROM requests WHERE kind = 'confirm' AND report_id = 'cf-quiet'")" = "queued 3 confirm-cf-quiet-3" ]
confirm_roots "$W/roots2" $B2 $H2 "1000 1010 990 1004 995 1008" "1030 1040 1020 1036 1028 1033"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e6"
check "confirmed there: 3 runs a side in two looks (the policy's first look alone was 3)" [ "$(sql "SELECT status || ': ' || verdict FROM requests WHERE kind = 'confirm' AND report_id = 'cf-quiet'")" = "done: confirmed" ]
