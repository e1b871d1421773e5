// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a bisection's JSON form (judge/bisect_json.c), and
 * what one read is then used for: a round, and the JSON written again.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/judge/bisect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct seq_design d[3];
	static int ready;
	struct bisect b = { 0 };
	struct bisect_step st;
	struct seq_params sp;
	struct pb_err err;
	char *text, *again;
	int i;

	if (!ready) {
		for (i = 0; i < 3; i++) {
			bisect_sandwich_params(&sp, i - 1);
			if (seq_design_init(&d[i], &sp, &err))
				abort();
		}
		ready = 1;
	}
	if (size > 1 << 20 || !(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!bisect_from_json(&b, text, &err)) {
		(void)bisect_next(&b, &d[b.par.direction + 1], &st, &err);
		again = bisect_to_json(&b);
		free(again);
	}
	bisect_release(&b);
	free(text);
	return 0;
}
