# Two overlapping cron runs send each report once.
for i in 1 2 3 4; do make_manifest c-$i 004; done
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1" & p1=$!
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2" & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
check "exit codes 0 or 75 ($r1 $r2)" [ \( $r1 = 0 -o $r1 = 75 \) -a \( $r2 = 0 -o $r2 = 75 \) ]
check "one of them ran" [ $r1 = 0 -o $r2 = 0 ]
if [ $r1 = 75 ] || [ $r2 = 75 ]; then
	check "the second says why" grep -qh "another perfbot is running" "$W/e1" "$W/e2"
fi
for i in 1 2 3 4; do
	check "c-$i once" [ "$(count alice X-Perfbot-Report c-$i)" = 1 ]
done
