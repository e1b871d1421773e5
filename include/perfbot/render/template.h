/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_TEMPLATE_H
#define PERFBOT_TEMPLATE_H

#include <jansson.h>

#include "perfbot/config/config.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * Render templates/<name>.txt (the templates.dir setting; 'name' is a
 * name, never a path) with the template context 'ctx', appending to
 * 'out'. Every text perfbot mails goes through here: the report's body
 * and subject, its attachments, each piece of an answer.
 */
int template_render(const struct config *cfg, const char *name, json_t *ctx,
		    struct strbuf *out, struct pb_err *err);

#endif
