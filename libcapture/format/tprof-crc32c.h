/* tprof-crc32c.h — CRC-32C (Castagnoli) of byte runs, as profile files store it for each column. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "tprof/tprof-macros.h"

/* Continues the CRC-32C @crc (0 to start) over the @n bytes at @data.
 * Uses the SSE4.2 crc32 instruction where the CPU has it (checked once,
 * at run time), a table otherwise; both give the same value. The value of
 * "123456789" is 0xe3069283. */
TPROF_EXPORT uint32_t _tprof_crc32c (uint32_t    crc,
                                     const void *data,
                                     size_t      n);

/* The portable table version alone (for tests comparing the two). */
TPROF_EXPORT uint32_t _tprof_crc32c_portable (uint32_t    crc,
                                              const void *data,
                                              size_t      n);
