/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_TRAILERS_H
#define PERFBOT_TRAILERS_H

#include <stddef.h>

/*
 * ingest: a commit message as perfbot reads it in the tracked tree, and
 * whether a commit names a report. Reports ask for the trailers
 *
 *     Reported-by: perfbot <perfbot@example.test>
 *     Closes: https://lore.example.test/perf/<Message-ID>
 *
 * (templates/trailers.txt; the link is identity.archive_url). A commit
 * names a report by a Closes: or Link: trailer holding its archive link
 * or its Message-ID (with or without angle brackets, as a path segment
 * of another archive's link, folded over several lines), by Reported-by:
 * the bot with the link or the Message-ID anywhere in the message, or by
 * the title or sha a 'fix:' named. A revert ("This reverts commit SHA.",
 * a title 'Revert "TITLE"') takes a landed fix away. The trailers are
 * those of the message's last paragraph, as git interpret-trailers reads
 * them: every line a trailer, or at least a quarter of them with one of
 * the kernel's own (Signed-off-by: ...) among them; a line that starts
 * with white space continues the one above.
 */

#define COMMIT_MSG_MAX (1 << 20)	/* bytes of a message read */
#define COMMIT_TRAILERS_MAX 256		/* trailers kept of one */

struct trailer {
	char *key;		/* as written ("Closes") */
	char *value;		/* trimmed, continuation lines joined by ' ' */
};

struct commit_msg {
	const char *text;	/* the whole message (borrowed) */
	size_t len;
	char *summary;		/* its first line, trimmed */
	struct trailer *trailers;
	size_t ntrailers;
	char *reverts;		/* "This reverts commit SHA": the full sha,
				 * lower case, or NULL */
	char *revert_title;	/* 'Revert "TITLE"': TITLE, or NULL */
};

/*
 * Read 'text' ('len' bytes, at most COMMIT_MSG_MAX of them looked at;
 * borrowed: it must outlive 'm'). 0, or -1 when out of memory;
 * commit_msg_release() after in both cases.
 */
int commit_msg_parse(struct commit_msg *m, const char *text, size_t len);
void commit_msg_release(struct commit_msg *m);

/*
 * Each name in 'text' ('len' bytes) that may point at a report: each
 * white-space separated word with angle brackets and trailing
 * punctuation taken off (a link, a Message-ID), each path segment of a
 * link percent-decoded, and, when the text has white space, the whole of
 * it without any (a link folded over two lines). 'cb' is called with
 * each (not NUL-terminated); a non-zero return stops the walk and is
 * returned.
 */
int commit_names(const char *text, size_t len,
		 int (*cb)(const char *name, size_t n, void *arg), void *arg);

/* What names one report. */
struct report_key {
	const char *url;	/* its archive link, or NULL */
	const char *message_id;	/* without angle brackets, or NULL */
	const char *title;	/* a title 'fix:' named, or NULL */
	const char *sha;	/* a sha (prefix) 'fix:' named, or NULL */
};

/*
 * 1 when one of the names of 'text' ('len' bytes; commit_names()) is the
 * link or the Message-ID of 'k' (a link also with or without its last
 * '/').
 */
int commit_names_report(const char *text, size_t len,
			const struct report_key *k);

enum commit_match {
	MATCH_NONE, MATCH_CLOSES, MATCH_LINK, MATCH_REPORTED_BY, MATCH_TITLE,
	MATCH_SHA
};

/* "Closes:", "Link:", "Reported-by:", "title", "sha" ("" for none). */
const char *commit_match_name(enum commit_match m);

/*
 * How commit 'sha' (full, lower case) with message 'm' names the report
 * of 'k'; 'bots' the 'nbots' addresses that are the bot's own (its From
 * and Reported-by). MATCH_NONE when it does not.
 */
enum commit_match commit_match(const struct commit_msg *m, const char *sha,
			       const struct report_key *k,
			       const char *const *bots, size_t nbots);

/*
 * 1 when a commit that reverts 'reverts' (the sha its "This reverts
 * commit" names, or NULL) and 'revert_title' (its 'Revert "TITLE"', or
 * NULL) takes away the fix 'fix_commit' (full sha; NULL unknown) whose
 * title is 'fix_summary' (NULL unknown): the sha names it, or, naming
 * none, the title is its title.
 */
int commit_reverts(const char *reverts, const char *revert_title,
		   const char *fix_commit, const char *fix_summary);

/* 1 when 's' is 7 to 40 hex digits (a commit's sha or its prefix). */
int commit_is_sha(const char *s, size_t n);

/*
 * 1 when 's' names a commit by its sha: "SHA" or git's reference form
 * 'SHA ("TITLE")' (7 to 40 hex digits), with '*sha_len' its digits and
 * '*title' ('*title_len' bytes, inside 's') its title, NULL when none is
 * given whole; 0 for anything else (a title).
 */
int commit_ref(const char *s, size_t *sha_len, const char **title,
	       size_t *title_len);

#endif
