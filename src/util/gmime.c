// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: GMime set up once for the whole process (gmime.h), with the
 * parser options the mail readers share.
 */
#include <pthread.h>

#include "perfbot/util/gmime.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static GMimeParserOptions *options;

static void setup(void)
{
	static const char *fallback[] = { "utf-8", "windows-1252", NULL };

	g_mime_init();
	/* Kept for the life of the process: parsed headers refer to it. */
	options = g_mime_parser_options_new();
	g_mime_parser_options_set_fallback_charsets(options, fallback);
}

void gmime_once(void)
{
	pthread_once(&once, setup);
}

GMimeParserOptions *gmime_parser_options(void)
{
	gmime_once();
	return options;
}
