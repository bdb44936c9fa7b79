/* bench-rss.h — a benchmark's memory: its resident and peak resident size, from /proc. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* A field of /proc/self/status in bytes ("VmRSS", "VmHWM"), or 0. */
size_t bench_status_bytes (const char *field);

/* Starts a new peak-RSS window (Linux: "5" to clear_refs resets VmHWM);
 * false where the kernel cannot. */
bool   bench_peak_rss_reset (void);
