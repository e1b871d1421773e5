/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CURL_H
#define PERFBOT_CURL_H

#include "perfbot/util/err.h"

/* libcurl's global initialisation, once per process (EX_SOFTWARE). */
int curl_once(struct pb_err *err);

#endif
