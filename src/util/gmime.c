// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: GMime set up once for the whole process (gmime.h), with the
 * parser options the mail readers share.
 */
#include <pthread.h>

#include "perfbot/util/gmime.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static GMimeParserOptions *options;

/*
 * The classes whose objects perfbot makes, and what they are made of,
 * initialised here: GObject makes a class on first use and publishes it
 * to other threads with atomic operations of an uninstrumented GLib,
 * which ThreadSanitizer cannot see, so a class first used on a worker
 * thread (the cycle composes reports on several) reads there as a race.
 * Made once under pthread_once(), every thread sees them made.
 */
static void classes(void)
{
	GType (*const types[])(void) = {
		internet_address_list_get_type, internet_address_get_type,
		internet_address_mailbox_get_type,
		internet_address_group_get_type, g_mime_object_get_type,
		g_mime_message_get_type, g_mime_part_get_type,
		g_mime_text_part_get_type, g_mime_multipart_get_type,
		g_mime_message_part_get_type, g_mime_data_wrapper_get_type,
		g_mime_content_type_get_type,
		g_mime_content_disposition_get_type,
		g_mime_param_list_get_type, g_mime_header_list_get_type,
		g_mime_header_get_type, g_mime_parser_get_type,
		g_mime_stream_get_type, g_mime_stream_mem_get_type,
		g_mime_stream_filter_get_type, g_mime_stream_null_get_type,
		g_mime_stream_cat_get_type, g_mime_stream_buffer_get_type,
		g_mime_filter_get_type, g_mime_filter_basic_get_type,
		g_mime_filter_best_get_type, g_mime_filter_charset_get_type,
		g_mime_filter_unix2dos_get_type,
		g_mime_filter_dos2unix_get_type,
		g_mime_filter_smtp_data_get_type, g_mime_filter_from_get_type,
		g_mime_filter_strip_get_type,
	};
	size_t i;
	GType t;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		t = types[i]();
		if (G_TYPE_IS_CLASSED(t))
			g_type_class_unref(g_type_class_ref(t));
	}
}

static void setup(void)
{
	static const char *fallback[] = { "utf-8", "windows-1252", NULL };

	g_mime_init();
	classes();
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
