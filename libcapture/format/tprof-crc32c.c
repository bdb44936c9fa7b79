/* tprof-crc32c.c — CRC-32C with the SSE4.2 instruction where present, a slicing table elsewhere. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <string.h>

#include "tprof-crc32c.h"

#define TPROF_CRC32C_POLY 0x82f63b78u  /* reflected Castagnoli polynomial */

static uint32_t crc32c_table[8][256];
static pthread_once_t crc32c_once = PTHREAD_ONCE_INIT;
static uint32_t (*crc32c_impl) (uint32_t, const unsigned char *, size_t);

static void
crc32c_make_table (void)
{
  for (uint32_t i = 0; i < 256; i++)
    {
      uint32_t c = i;

      for (int k = 0; k < 8; k++)
        c = (c >> 1) ^ (TPROF_CRC32C_POLY & (0u - (c & 1)));
      crc32c_table[0][i] = c;
    }
  for (uint32_t i = 0; i < 256; i++)
    for (int t = 1; t < 8; t++)
      crc32c_table[t][i] = (crc32c_table[t - 1][i] >> 8) ^ crc32c_table[0][crc32c_table[t - 1][i] & 0xff];
}

/* Eight bytes a step ("slicing by 8"); the state is the inverted CRC. */
static uint32_t
crc32c_table_run (uint32_t             c,
                  const unsigned char *p,
                  size_t               n)
{
  for (; n >= 8; n -= 8, p += 8)
    {
      uint32_t lo = c ^ ((uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24);
      uint32_t hi = (uint32_t) p[4] | (uint32_t) p[5] << 8 | (uint32_t) p[6] << 16 | (uint32_t) p[7] << 24;

      c = crc32c_table[7][lo & 0xff] ^ crc32c_table[6][(lo >> 8) & 0xff] ^ crc32c_table[5][(lo >> 16) & 0xff]
          ^ crc32c_table[4][lo >> 24] ^ crc32c_table[3][hi & 0xff] ^ crc32c_table[2][(hi >> 8) & 0xff]
          ^ crc32c_table[1][(hi >> 16) & 0xff] ^ crc32c_table[0][hi >> 24];
    }
  for (; n > 0; n--, p++)
    c = (c >> 8) ^ crc32c_table[0][(c ^ *p) & 0xff];
  return c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TPROF_CRC32C_HARDWARE 1
/* The crc32 instruction, eight bytes at a time. */
__attribute__((target ("sse4.2"))) static uint32_t
crc32c_hardware_run (uint32_t             c,
                     const unsigned char *p,
                     size_t               n)
{
  uint64_t c64;

  for (; n > 0 && ((uintptr_t) p & 7) != 0; n--, p++)
    c = __builtin_ia32_crc32qi (c, *p);
  c64 = c;
  for (; n >= 8; n -= 8, p += 8)
    {
      uint64_t v;

      memcpy (&v, p, sizeof v);
      c64 = __builtin_ia32_crc32di (c64, v);
    }
  c = (uint32_t) c64;
  for (; n > 0; n--, p++)
    c = __builtin_ia32_crc32qi (c, *p);
  return c;
}
#endif

static void
crc32c_choose (void)
{
  crc32c_make_table ();
  crc32c_impl = crc32c_table_run;
#ifdef TPROF_CRC32C_HARDWARE
  __builtin_cpu_init ();
  if (__builtin_cpu_supports ("sse4.2"))
    crc32c_impl = crc32c_hardware_run;
#endif
}

uint32_t
_tprof_crc32c (uint32_t    crc,
               const void *data,
               size_t      n)
{
  pthread_once (&crc32c_once, crc32c_choose);
  return ~crc32c_impl (~crc, data, n);
}

uint32_t
_tprof_crc32c_portable (uint32_t    crc,
                        const void *data,
                        size_t      n)
{
  pthread_once (&crc32c_once, crc32c_choose);
  return ~crc32c_table_run (~crc, data, n);
}
