/* tprof-spill-record-internal.h — a spill file's records: their types, the 16-byte header and its checksum, the field encoders. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "tprof/tprof-macros.h"

/* docs/spill-format.md describes every record; these are its numbers. */
#define TPROF_SPILL_MAGIC     0x52505354u  /* the bytes "TSPR" */
#define TPROF_SPILL_VERSION   1
#define TPROF_SPILL_HEAD_SIZE 16
/* A record's payload parts, at most: a writev() of them, the header and
 * the padding stays far below IOV_MAX. */
#define TPROF_SPILL_MAX_PARTS 16
/* The longest payload a record may carry (its length is a u32; writev()
 * moves at most about 2 GiB in one call on Linux). */
#define TPROF_SPILL_MAX_PAYLOAD ((size_t) 1 << 30)

typedef enum
{
  TPROF_SPILL_HEADER = 1,
  TPROF_SPILL_NAMES = 2,
  TPROF_SPILL_SAMPLES = 3,
  TPROF_SPILL_CLOCK = 4,
  TPROF_SPILL_COMMIT = 5,
  TPROF_SPILL_STATE = 6,
  TPROF_SPILL_SIGNAL = 7,
  TPROF_SPILL_END = 8,
} TprofSpillRecordType;

/* SAMPLES' encodings. */
#define TPROF_SPILL_SECONDS 0
#define TPROF_SPILL_RAW     1

/* Fills @head, the 16-byte header of a record of @type whose payload is
 * the @n_parts runs of @payload, one after the other: magic, type, flags
 * 0, length, and the CRC-32C of head[0..11] then of the payload. Returns
 * the zero bytes to write after the payload (0 to 7). Async-signal-safe
 * once _tprof_crc32c() has run once in the process. */
TPROF_EXPORT size_t _tprof_spill_record_head (uint8_t             head[TPROF_SPILL_HEAD_SIZE],
                                              uint16_t            type,
                                              const struct iovec *payload,
                                              int                 n_parts);

/* Appends one record to @fd (opened with O_APPEND): the header, the
 * payload and its padding in one writev(), which a write interrupted by a
 * signal before it moved anything repeats, and a short one continues.
 * Async-signal-safe (no malloc, no lock) once _tprof_crc32c() has run.
 * Returns 0, or -errno (-EINVAL for more than TPROF_SPILL_MAX_PARTS parts
 * or a payload over TPROF_SPILL_MAX_PAYLOAD). */
TPROF_EXPORT int _tprof_spill_record_write (int                 fd,
                                            uint16_t            type,
                                            const struct iovec *payload,
                                            int                 n_parts);

/* Bytes a record of @payload_len bytes takes in the file. */
static inline size_t
_tprof_spill_record_size (size_t payload_len)
{
  return TPROF_SPILL_HEAD_SIZE + ((payload_len + 7) & ~(size_t) 7);
}

/* Field encoders: each stores its value little-endian at @p and returns
 * the byte after it. */
static inline uint8_t *
_tprof_spill_put_u16 (uint8_t *p, uint16_t v)
{
  p[0] = (uint8_t) v;
  p[1] = (uint8_t) (v >> 8);
  return p + 2;
}

static inline uint8_t *
_tprof_spill_put_u32 (uint8_t *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t) (v >> (8 * i));
  return p + 4;
}

static inline uint8_t *
_tprof_spill_put_u64 (uint8_t *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t) (v >> (8 * i));
  return p + 8;
}

static inline uint8_t *
_tprof_spill_put_i32 (uint8_t *p, int32_t v)
{
  return _tprof_spill_put_u32 (p, (uint32_t) v);
}

static inline uint8_t *
_tprof_spill_put_i64 (uint8_t *p, int64_t v)
{
  return _tprof_spill_put_u64 (p, (uint64_t) v);
}

static inline uint8_t *
_tprof_spill_put_f64 (uint8_t *p, double v)
{
  uint64_t bits;

  memcpy (&bits, &v, sizeof bits);
  return _tprof_spill_put_u64 (p, bits);
}

/* A str: u16 length, then the bytes of @s, cut to 65535 bytes (at a
 * character boundary of UTF-8). NULL is the empty string. */
static inline uint8_t *
_tprof_spill_put_str (uint8_t *p, const char *s)
{
  size_t n = s != NULL ? strlen (s) : 0;

  if (n > UINT16_MAX)
    for (n = UINT16_MAX; n > 0 && ((unsigned char) s[n] & 0xc0) == 0x80; n--)
      ;
  p = _tprof_spill_put_u16 (p, (uint16_t) n);
  if (n > 0)
    memcpy (p, s, n);
  return p + n;
}

/* Bytes _tprof_spill_put_str() stores for @s, at most. */
static inline size_t
_tprof_spill_str_size (const char *s)
{
  size_t n = s != NULL ? strlen (s) : 0;

  return 2 + (n < UINT16_MAX ? n : UINT16_MAX);
}

/* Field decoders, for readers: the value little-endian at @p. */
static inline uint16_t
_tprof_spill_get_u16 (const uint8_t *p)
{
  return (uint16_t) (p[0] | p[1] << 8);
}

static inline uint32_t
_tprof_spill_get_u32 (const uint8_t *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static inline uint64_t
_tprof_spill_get_u64 (const uint8_t *p)
{
  return (uint64_t) _tprof_spill_get_u32 (p) | (uint64_t) _tprof_spill_get_u32 (p + 4) << 32;
}

static inline double
_tprof_spill_get_f64 (const uint8_t *p)
{
  uint64_t bits = _tprof_spill_get_u64 (p);
  double v;

  memcpy (&v, &bits, sizeof v);
  return v;
}
