/* tprof-crc32c.c — CRC-32C with the SSE4.2 instruction where present (three runs at once over long buffers), a slicing table elsewhere. */
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

/* The crc32 instruction takes 3 cycles and can start every cycle: three
 * independent runs over three adjacent stretches of a long buffer keep
 * it busy. Each stretch's CRC is then moved past the bytes after it
 * (a register that goes through N more zero bytes: a linear map,
 * applied with four tables of 256 entries) and added in. Stretches of
 * CRC32C_LONG bytes for large buffers, CRC32C_SHORT for the rest. */
#define CRC32C_LONG  4096
#define CRC32C_SHORT 256

static uint32_t crc32c_long[4][256];
static uint32_t crc32c_short[4][256];

/* @mat (32 columns over GF(2)) times @vec. */
static uint32_t
crc32c_gf2_times (const uint32_t *mat,
                  uint32_t        vec)
{
  uint32_t sum = 0;

  for (; vec != 0; vec >>= 1, mat++)
    if (vec & 1)
      sum ^= *mat;
  return sum;
}

/* @out = @mat squared. */
static void
crc32c_gf2_square (uint32_t       *out,
                   const uint32_t *mat)
{
  for (int n = 0; n < 32; n++)
    out[n] = crc32c_gf2_times (mat, mat[n]);
}

/* @tables: the map a register goes through over @bytes zero bytes (a
 * power of two), by each of its four bytes. */
static void
crc32c_make_zeros (uint32_t tables[4][256],
                   size_t   bytes)
{
  uint32_t op[32], sq[32];

  /* one zero bit: shift right, the polynomial where a 1 falls off */
  op[0] = TPROF_CRC32C_POLY;
  for (int n = 1; n < 32; n++)
    op[n] = 1u << (n - 1);
  /* squared three times: one zero byte; then once per doubling */
  for (size_t bits = 1; bits < 8 * bytes; bits *= 2)
    {
      crc32c_gf2_square (sq, op);
      memcpy (op, sq, sizeof op);
    }
  for (uint32_t n = 0; n < 256; n++)
    for (int b = 0; b < 4; b++)
      tables[b][n] = crc32c_gf2_times (op, n << (8 * b));
}

/* Register @c moved past the zero bytes @tables stand for. */
static inline uint32_t
crc32c_shift (const uint32_t tables[4][256],
              uint32_t       c)
{
  return tables[0][c & 0xff] ^ tables[1][(c >> 8) & 0xff] ^ tables[2][(c >> 16) & 0xff] ^ tables[3][c >> 24];
}

/* Three runs over the three stretches of @len bytes from @p on: the
 * register after all 3 @len bytes. */
__attribute__((target ("sse4.2"))) static uint64_t
crc32c_hardware_three (uint64_t             c0,
                       const unsigned char *p,
                       size_t               len,
                       const uint32_t       tables[4][256])
{
  uint64_t c1 = 0, c2 = 0;

  for (const unsigned char *end = p + len; p < end; p += 8)
    {
      uint64_t v0, v1, v2;

      memcpy (&v0, p, 8);
      memcpy (&v1, p + len, 8);
      memcpy (&v2, p + 2 * len, 8);
      c0 = __builtin_ia32_crc32di (c0, v0);
      c1 = __builtin_ia32_crc32di (c1, v1);
      c2 = __builtin_ia32_crc32di (c2, v2);
    }
  c0 = crc32c_shift (tables, (uint32_t) c0) ^ (uint32_t) c1;
  return crc32c_shift (tables, (uint32_t) c0) ^ (uint32_t) c2;
}

/* The crc32 instruction, eight bytes at a time, three runs at once over
 * long buffers. */
__attribute__((target ("sse4.2"))) static uint32_t
crc32c_hardware_run (uint32_t             c,
                     const unsigned char *p,
                     size_t               n)
{
  uint64_t c64;

  for (; n > 0 && ((uintptr_t) p & 7) != 0; n--, p++)
    c = __builtin_ia32_crc32qi (c, *p);
  c64 = c;
  for (; n >= 3 * CRC32C_LONG; n -= 3 * CRC32C_LONG, p += 3 * CRC32C_LONG)
    c64 = crc32c_hardware_three (c64, p, CRC32C_LONG, crc32c_long);
  for (; n >= 3 * CRC32C_SHORT; n -= 3 * CRC32C_SHORT, p += 3 * CRC32C_SHORT)
    c64 = crc32c_hardware_three (c64, p, CRC32C_SHORT, crc32c_short);
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
    {
      crc32c_make_zeros (crc32c_long, CRC32C_LONG);
      crc32c_make_zeros (crc32c_short, CRC32C_SHORT);
      crc32c_impl = crc32c_hardware_run;
    }
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
