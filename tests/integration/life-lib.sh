# Helpers of the t-life-*.sh tests (sourced by them): a git repository
# made with the git command (the tests' own; perfbot reads it with
# libgit2 and runs no git), the tracking section of the config, and
# replies sent through the real SMTP server.
GITENV="GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.test GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.test"

life_repo() {	# life_repo: $W/repo with one commit on master
	env $GITENV git init -q -b master "$W/repo" &&
		env $GITENV git -C "$W/repo" commit -q --allow-empty -m first
}

life_commit() {	# life_commit MESSAGE: a commit on master
	printf '%b' "$1" >"$W/commit-msg"
	env $GITENV git -C "$W/repo" commit -q --allow-empty -F "$W/commit-msg"
}

life_tracking() {	# the config's tracking section, on $W/repo's master
	printf 'tracking:\n  repo: %s/repo\n  branches: [master]\n' "$W" >>"$CONFIG"
}

life_reminders() {	# the config's reminders section: hourly, to the list
	printf 'reminders:\n  to: ["Perf <perf-reports@example.test>"]\n  every: 1h\n  min_age: 0\n' >>"$CONFIG"
}

# life_mail FROM MESSAGE-ID IN-REPLY-TO SUBJECT BODY: sent to the bot
life_mail() {
	{
		printf 'From: Dev <%s>\nTo: perfbot@example.test\n' "$1"
		printf 'Subject: Re: %s\nDate: %s\n' "$4" "$(date -R)"
		printf 'Message-ID: <%s>\nIn-Reply-To: <%s>\n' "$2" "$3"
		printf 'References: <%s>\n' "$3"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
		printf '%b\n' "$5"
	} >"$W/mail-$2"
	curl -s --max-time 20 --mail-from "$1" --mail-rcpt perfbot@example.test \
		-T "$W/mail-$2" "smtp://127.0.0.1:$SMTP_PORT"
}

life_settle() {	# wait until perfbot's INBOX holds N messages
	for i in $(seq 1 100); do
		[ "$(imap perfbot "" -X 'UID SEARCH ALL' | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w)" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

life_wait() {	# life_wait USER HEADER VALUE N: until N such mails arrived
	for i in $(seq 1 100); do
		[ "$(count "$1" "$2" "$3")" -ge "$4" ] && return 0
		sleep 0.1
	done
	return 1
}

# life_body USER FILE PATTERN HEADER VALUE: the decoded body of the first
# of USER's mails with HEADER holding VALUE whose body matches PATTERN
life_body() {
	set -- "$1" "$2" "$3" $(search "$1" "$4" "$5")
	lb_user=$1 lb_file=$2 lb_pat=$3
	shift 3
	fetch_matching "$lb_user" "$lb_file.eml" "$lb_pat" "$@" || return 1
	"$MAILCHECK" "$lb_file.eml" >"$lb_file.check" 2>"$lb_file"
}

life_status() {	# life_status REPORT: its record's status in the state
	sql "SELECT coalesce((SELECT status FROM records WHERE report_id = '$1'), 'open')"
}
