/* held-files.h — which deleted files this process still holds open: a save's replaced file must be let go. */
/* SPDX-License-Identifier: MIT */
#pragma once

/* How many of this process's descriptors name a deleted file in @dir
 * (/proc/self/fd). */
int held_deleted_files_in (const char *dir);
