/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ID_H
#define PERFBOT_ID_H

#include <stddef.h>
#include <time.h>

/*
 * Every id perfbot mints (util): stable ones (the same inputs give the
 * same id, so a retried run queues nothing twice) are 64-bit FNV-1a
 * hashes in hex. Each function returns a newly allocated string, or NULL
 * when out of memory.
 */

/*
 * The Message-ID (without brackets) of the mail with id 'id' created at
 * 'when': "YYYYMMDDhhmm.16hex-perfbot@domain", 16hex the 64-bit FNV-1a
 * hash of the id (so reproducible with SOURCE_DATE_EPOCH, and two mails
 * of one minute colliding out of reach); 'domain' NULL or "" is
 * "localhost".
 * id_message_id_draw() with 'draw' > 0 gives another one for the same
 * mail, for when the state already holds the first (drawn again, still
 * reproducibly).
 */
char *id_message_id(const char *id, time_t when, const char *domain);
char *id_message_id_draw(const char *id, time_t when, const char *domain,
			 int draw);

/*
 * 1 when 'message_id' (without brackets) has the shape id_message_id()
 * gives on 'domain' (NULL or "" is "localhost"; compared in any case),
 * or the 8-hex-digit shape of ids minted before 0.4:
 * a mail of the bot's, whichever instance queued it; else 0.
 */
int id_is_ours(const char *message_id, const char *domain);

/*
 * The id of a report whose manifest names none: 16 hex digits of the
 * hash of "base\nhead\naxes_keys\naxes_values".
 */
char *id_report(const char *base, const char *head, const char *axes_keys,
		const char *axes_values);

/*
 * The id of the answer to the mail 'message_id': "a-" and 16 hex digits
 * of the hash of the Message-ID then 'tag' ("" for the immediate answer,
 * the retest request id for its follow-up).
 */
char *id_answer(const char *message_id, const char *tag);

/*
 * The retest request asked by command 'index' of mail 'message_id':
 * "rt-" and 16 hex digits of the hash of "message_id#index".
 */
char *id_retest_request(const char *message_id, size_t index);

/* The same for a test: "test-" and 16 hex digits of that hash. */
char *id_test_request(const char *message_id, size_t index);

/*
 * The run on the fix 'commit' of report 'report_id' (tracking.verify):
 * "verify-" and 16 hex digits of the hash of "report_id#commit", so a
 * landing found again after a crash asks the farm with the same id.
 */
char *id_verify_request(const char *report_id, const char *commit);

/* The confirmation request of report 'report_id': "confirm-<id>". */
char *id_confirm_request(const char *report_id);
/* The request of a later look of a confirmation, 'runs' new runs a side
 * in all: "confirm-<report id>-<runs>"; NULL when out of memory. */
char *id_confirm_look(const char *report_id, long runs);

/*
 * The name of 'id' (a report id, a testcase) as a file name and a URL
 * path segment of the web archive ("r/<name>.html"), newly allocated:
 * a-z, 0-9, '_', '-' and '.' (but a leading one) stay, every other byte
 * becomes "~" and two lowercase hex digits, so two ids never share a
 * name, on a file system that ignores case too, and no name is hidden,
 * "." or "..". A name longer than ID_FILE_NAME_MAX is cut there (between
 * escapes) and ends "~~" and 16 hex digits of the id's hash ("~~" is in
 * no other name). "" is "~".
 */
#define ID_FILE_NAME_MAX 160
char *id_file_name(const char *id);

/*
 * A multipart boundary into 'buf' ('n' bytes, at least 48): "=-perfbot-"
 * and 96 random bits in hex; with SOURCE_DATE_EPOCH set (reproducible
 * output) "=-perfbot-" and 16 hex digits of the hash of 'message_id' and
 * 'try' (try 0: of the Message-ID alone). -1 with errno when no random
 * bytes could be had.
 */
int id_boundary(const char *message_id, int try, char *buf, size_t n);

#endif
