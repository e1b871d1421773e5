/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_VERSION_H
#define PERFBOT_VERSION_H
#define PERFBOT_VERSION "0.1.0"
#endif
