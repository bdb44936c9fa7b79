/* tprof-names-private.h — name ids shared by the time manager and the timers. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>

/* Ids are in [1, TPROF_MAX_NAME_ID). */
#define TPROF_MAX_NAME_ID (1 << 22)

/* The largest id handed out so far. */
int _tprof_names_max_id (void);
