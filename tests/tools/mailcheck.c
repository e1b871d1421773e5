// SPDX-License-Identifier: GPL-2.0-only
/*
 * mailcheck: print what the tests need to know about one mail, parsed
 * with GMime: mailcheck FILE|-
 *   header NAME: VALUE        each top-level header, unfolded
 *   subject: TEXT             the decoded subject
 *   part TYPE DISPOSITION FILENAME BYTES   each leaf part, decoded size
 *   body-sha: HEX             FNV-1a of the decoded first text part
 * Exit 65 when the input is not a parsable message.
 */
#include <stdio.h>
#include <string.h>
#include <gmime/gmime.h>

#include "perfbot/util/strmap.h"

static int first_text = 1;

static void leaf(GMimeObject *parent, GMimeObject *part, gpointer data)
{
	GMimeContentType *ct = g_mime_object_get_content_type(part);
	const char *disp = g_mime_object_get_disposition(part);
	const char *name = GMIME_IS_PART(part) ?
		g_mime_part_get_filename(GMIME_PART(part)) : NULL;
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *bytes;
	char *type = g_mime_content_type_get_mime_type(ct);

	(void)parent;
	(void)data;
	if (!GMIME_IS_PART(part)) {
		g_free(type);
		g_object_unref(mem);
		return;
	}
	{
		GMimeDataWrapper *w = g_mime_part_get_content(GMIME_PART(part));

		if (w)
			g_mime_data_wrapper_write_to_stream(w, mem);
	}
	bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	printf("part %s %s %s %u\n", type, disp ? disp : "-",
	       name ? name : "-", bytes->len);
	if (first_text && !strncmp(type, "text/", 5)) {
		printf("body-sha: %016llx\n",
		       hash_fnv1a(bytes->data, bytes->len, 0));
		fwrite(bytes->data, 1, bytes->len, stderr);
		first_text = 0;
	}
	g_free(type);
	g_object_unref(mem);
}

int main(int argc, char **argv)
{
	GMimeStream *in;
	GMimeParser *p;
	GMimeMessage *msg;
	GMimeHeaderList *hl;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: mailcheck FILE|-\n");
		return 64;
	}
	g_mime_init();
	in = strcmp(argv[1], "-") ? g_mime_stream_file_open(argv[1], "r",
							     NULL) :
		g_mime_stream_file_new(stdin);
	if (!in)
		return 66;
	if (!strcmp(argv[1], "-"))
		g_mime_stream_file_set_owner(GMIME_STREAM_FILE(in), FALSE);
	p = g_mime_parser_new_with_stream(in);
	msg = g_mime_parser_construct_message(p, NULL);
	if (!msg)
		return 65;
	hl = g_mime_object_get_header_list(GMIME_OBJECT(msg));
	for (i = 0; i < g_mime_header_list_get_count(hl); i++) {
		GMimeHeader *h = g_mime_header_list_get_header_at(hl, i);

		printf("header %s: %s\n", g_mime_header_get_name(h),
		       g_mime_header_get_value(h));
	}
	printf("subject: %s\n", g_mime_message_get_subject(msg) ?
	       g_mime_message_get_subject(msg) : "");
	g_mime_message_foreach(msg, leaf, NULL);
	g_object_unref(msg);
	g_object_unref(p);
	g_object_unref(in);
	return 0;
}
