/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_GMIME_H
#define PERFBOT_GMIME_H

#include <gmime/gmime.h>

/*
 * GMime's one initialisation, once per process and safe from threads,
 * for every module that uses GMime (util/addr.c, parse/, compose/mail.c);
 * and the parser options every reader of mail shares: UTF-8, then
 * windows-1252 for text that declares no charset or a wrong one.
 */
void gmime_once(void);

/* The shared parser options (gmime_once() done first; never freed). */
GMimeParserOptions *gmime_parser_options(void);

#endif
