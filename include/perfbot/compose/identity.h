/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_IDENTITY_H
#define PERFBOT_IDENTITY_H

#include <time.h>

#include "perfbot/config/config.h"

/*
 * Who the bot is in its mails (compose), from the identity.* settings
 * (cfg->identity: its From, name and Reported-by line are read there as
 * they are): its envelope sender, its Message-IDs and the archive links
 * built from them, newly allocated (NULL when out of memory, or when the
 * setting is unset).
 */

/* The bare address of identity.from: the envelope sender. */
char *identity_sender(const struct config *cfg);

/*
 * The Message-ID of mail 'id' sent at 'when' (identity.message_id_domain);
 * 'draw' > 0 another one when the state holds that (util/id.h).
 */
char *identity_message_id(const struct config *cfg, const char *id,
			  time_t when, int draw);

/*
 * The archive's page of report 'report_id' mailed as 'message_id', for
 * Closes: trailers: identity.archive_url with "{message_id}" replaced by
 * the id as it is and "{report_id}" by the name of the report's page in
 * perfbot's web archive (id_file_name(), so that
 * "https://perf.example.org/r/{report_id}.html" is the page 'perfbot
 * web' writes); NULL when unset.
 */
char *identity_closes_url(const struct config *cfg, const char *report_id,
			  const char *message_id);

/*
 * The link to a patch posting: 'link' when the manifest gives one, else
 * identity.patch_archive_url with "{message_id}" replaced by the patch's
 * Message-ID, percent-encoded; NULL when neither.
 */
char *identity_patch_link(const struct config *cfg, const char *link,
			  const char *message_id);

#endif
