/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_TOOL_H
#define PERFBOT_TOOL_H

#include <stdio.h>
#include <stdlib.h>

/* The test tools' answer to a strbuf that cannot grow: stop, loudly. */
#define MUST(x)								\
	do {								\
		if (x) {						\
			fprintf(stderr, "%s:%d: out of memory\n",	\
				__FILE__, __LINE__);			\
			exit(70);					\
		}							\
	} while (0)

#endif
