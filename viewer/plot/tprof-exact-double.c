/* tprof-exact-double.c — the shortest decimal digits that read back as exactly a double, found with integer arithmetic, written as "%.15g", "%.16g" or "%.17g" would. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tprof-text-private.h"

/* The digits are those of the shortest decimal inside the interval of
 * reals that round to the double (its ends included when the mantissa
 * is even), the one nearest the double among them, ties to even: the
 * interval's ends and the double itself, times 4 to keep them integers,
 * are multiplied by a 125-bit approximation of a power of ten and
 * shifted, giving three 64-bit integers from which digits are dropped
 * while the ends still differ. The approximations are exact enough that
 * the truncated digits are never wrong; where a product could be exact
 * (its dropped digits all zero), that is decided from the powers of 2
 * and 5 dividing the mantissa. */

#define MANTISSA_BITS 52
#define EXPONENT_BIAS 1023
#define POW5_BITS 125           /* bits of each 5^i approximation */
#define POW5_COUNT 326          /* 5^0 .. 5^325: doubles below 1 */
#define POW5_INV_COUNT 342      /* 5^-0 .. 5^-341: doubles of 1 and more */
#define BIG_LIMBS 28            /* 32-bit limbs: 5^341 has 792 bits */

typedef struct
{
  uint64_t word[2];             /* low, high */
  int      ready;               /* written last (release), read first (acquire) */
} Pow5Entry;

static Pow5Entry pow5_table[POW5_COUNT];
static Pow5Entry pow5_inv_table[POW5_INV_COUNT];

/* ---- powers of five, made once each on first use ---- */

/* 5^@i into @big (little-endian 32-bit limbs); returns the limbs used. */
static int
big_pow5 (uint32_t *big,
          int       i)
{
  int n = 1;

  memset (big, 0, BIG_LIMBS * sizeof *big);
  big[0] = 1;
  for (int k = 0; k < i; k++)
    {
      uint64_t carry = 0;

      for (int l = 0; l < n; l++)
        {
          uint64_t v = (uint64_t) big[l] * 5 + carry;

          big[l] = (uint32_t) v;
          carry = v >> 32;
        }
      if (carry != 0)
        big[n++] = (uint32_t) carry;
    }
  return n;
}

static int
big_bit_length (const uint32_t *big,
                int             n)
{
  return 32 * (n - 1) + (32 - __builtin_clz (big[n - 1]));
}

static int
big_bit (const uint32_t *big,
         int             n,
         int             bit)
{
  return bit >= 0 && bit < 32 * n ? (big[bit / 32] >> (bit % 32)) & 1 : 0;
}

static void
entry_publish (Pow5Entry *entry,
               uint64_t   low,
               uint64_t   high)
{
  __atomic_store_n (&entry->word[0], low, __ATOMIC_RELAXED);
  __atomic_store_n (&entry->word[1], high, __ATOMIC_RELAXED);
  __atomic_store_n (&entry->ready, 1, __ATOMIC_RELEASE);
}

/* Both words of @entry into @word; every access to them is atomic, as
 * two threads may make the same entry at once (writing the same values). */
static void
entry_read (Pow5Entry *entry,
            uint64_t  *word)
{
  word[0] = __atomic_load_n (&entry->word[0], __ATOMIC_RELAXED);
  word[1] = __atomic_load_n (&entry->word[1], __ATOMIC_RELAXED);
}

/* 5^i's top POW5_BITS bits (5^i itself shifted left if shorter) */
static void
pow5_split (int       i,
            uint64_t *mul)
{
  Pow5Entry *entry = &pow5_table[i];

  if (!__atomic_load_n (&entry->ready, __ATOMIC_ACQUIRE))
    {
      uint32_t big[BIG_LIMBS];
      int n = big_pow5 (big, i);
      int shift = big_bit_length (big, n) - POW5_BITS;
      uint64_t word[2] = { 0, 0 };

      for (int b = 0; b < POW5_BITS; b++)
        if (big_bit (big, n, b + shift))
          word[b / 64] |= (uint64_t) 1 << (b % 64);
      entry_publish (entry, word[0], word[1]);
    }
  entry_read (entry, mul);
}

/* floor (2^(bits(5^q) - 1 + POW5_BITS) / 5^q) + 1: the quotient's bits by
 * long division, the remainder kept below 5^q */
static void
pow5_inv_split (int       q,
                uint64_t *mul)
{
  Pow5Entry *entry = &pow5_inv_table[q];

  if (!__atomic_load_n (&entry->ready, __ATOMIC_ACQUIRE))
    {
      uint32_t big[BIG_LIMBS], rest[BIG_LIMBS + 1] = { 0 };
      int n = big_pow5 (big, q);
      int length = big_bit_length (big, n);
      uint64_t word[2] = { 0, 0 };

      if (q == 0)
        word[1] = (uint64_t) 1 << (POW5_BITS - 64);
      else
        {
          /* the dividend's top bits so far: 2^(length - 1) < 5^q */
          rest[(length - 1) / 32] = (uint32_t) 1 << ((length - 1) % 32);
          for (int b = POW5_BITS - 1; b >= 0; b--)
            {
              uint32_t carry = 0;
              int at_least = 1;

              for (int l = 0; l <= n; l++)
                {
                  uint32_t next = rest[l] >> 31;

                  rest[l] = (rest[l] << 1) | carry;
                  carry = next;
                }
              for (int l = n; l >= 0; l--)
                {
                  uint32_t d = l < n ? big[l] : 0;

                  if (rest[l] != d)
                    {
                      at_least = rest[l] > d;
                      break;
                    }
                }
              if (at_least)
                {
                  uint64_t borrow = 0;

                  for (int l = 0; l <= n; l++)
                    {
                      uint64_t d = (l < n ? big[l] : 0) + borrow;

                      borrow = rest[l] < d;
                      rest[l] = (uint32_t) ((uint64_t) rest[l] - d);
                    }
                  word[b / 64] |= (uint64_t) 1 << (b % 64);
                }
            }
        }
      word[0] += 1;
      word[1] += word[0] == 0;
      entry_publish (entry, word[0], word[1]);
    }
  entry_read (entry, mul);
}

/* ---- the shortest digits ---- */

/* ceil (log2 (5^e)), 1 for e = 0 (e <= 3528) */
static int
pow5_bits (int e)
{
  return (int) (((uint32_t) e * 1217359) >> 19) + 1;
}

/* floor (log10 (2^e)) (e <= 1650) */
static int
log10_pow2 (int e)
{
  return (int) (((uint32_t) e * 78913) >> 18);
}

/* floor (log10 (5^e)) (e <= 2620) */
static int
log10_pow5 (int e)
{
  return (int) (((uint32_t) e * 732923) >> 20);
}

static int
pow5_factor (uint64_t value)
{
  int count = 0;

  while (value != 0 && value % 5 == 0)
    {
      value /= 5;
      count++;
    }
  return count;
}

/* (m × mul) >> j for a 125-bit mul, j >= 64 */
static uint64_t
mul_shift (uint64_t        m,
           const uint64_t *mul,
           int             j)
{
  unsigned __int128 low = (unsigned __int128) m * mul[0];
  unsigned __int128 high = (unsigned __int128) m * mul[1];

  return (uint64_t) (((low >> 64) + high) >> (j - 64));
}

/* The shortest digits of the finite, nonzero @value's magnitude as an
 * integer *@digits times 10^*@exponent. */
static void
shortest_digits (double    value,
                 uint64_t *digits,
                 int      *exponent)
{
  uint64_t bits, mantissa, m2, mv, vr, vp, vm, output;
  int biased, e2, e10, removed = 0, last_removed = 0;
  int even, mm_shift;
  int vm_trailing_zeros = 0, vr_trailing_zeros = 0;

  memcpy (&bits, &value, sizeof bits);
  mantissa = bits & (((uint64_t) 1 << MANTISSA_BITS) - 1);
  biased = (int) ((bits >> MANTISSA_BITS) & 0x7ff);
  if (biased == 0)
    {
      e2 = 1 - EXPONENT_BIAS - MANTISSA_BITS - 2;
      m2 = mantissa;
    }
  else
    {
      e2 = biased - EXPONENT_BIAS - MANTISSA_BITS - 2;
      m2 = ((uint64_t) 1 << MANTISSA_BITS) | mantissa;
    }
  even = (m2 & 1) == 0;
  mv = 4 * m2;
  /* the interval reaches half as far down at a power of two */
  mm_shift = mantissa != 0 || biased <= 1;

  if (e2 >= 0)
    {
      int q = log10_pow2 (e2) - (e2 > 3);
      int j = -e2 + q + POW5_BITS + pow5_bits (q) - 1;
      uint64_t mul[2];

      pow5_inv_split (q, mul);
      e10 = q;
      vr = mul_shift (mv, mul, j);
      vp = mul_shift (mv + 2, mul, j);
      vm = mul_shift (mv - 1 - mm_shift, mul, j);
      if (q <= 21)
        {
          /* below 10^22 the products can be exact: where 5^q divides */
          if (mv % 5 == 0)
            vr_trailing_zeros = pow5_factor (mv) >= q;
          else if (even)
            vm_trailing_zeros = pow5_factor (mv - 1 - mm_shift) >= q;
          else
            vp -= pow5_factor (mv + 2) >= q;
        }
    }
  else
    {
      int q = log10_pow5 (-e2) - (-e2 > 1);
      int i = -e2 - q;
      int j = q - (pow5_bits (i) - POW5_BITS);
      uint64_t mul[2];

      pow5_split (i, mul);
      e10 = q + e2;
      vr = mul_shift (mv, mul, j);
      vp = mul_shift (mv + 2, mul, j);
      vm = mul_shift (mv - 1 - mm_shift, mul, j);
      if (q <= 1)
        {
          vr_trailing_zeros = 1;
          if (even)
            vm_trailing_zeros = mm_shift == 1;
          else
            vp--;
        }
      else if (q < 63)
        /* exact where 2^q divides */
        vr_trailing_zeros = (mv & (((uint64_t) 1 << q) - 1)) == 0;
    }

  if (vm_trailing_zeros || vr_trailing_zeros)
    {
      /* the rare exact case: ends and ties decided digit by digit */
      while (vp / 10 > vm / 10)
        {
          vm_trailing_zeros &= vm % 10 == 0;
          vr_trailing_zeros &= last_removed == 0;
          last_removed = (int) (vr % 10);
          vr /= 10;
          vp /= 10;
          vm /= 10;
          removed++;
        }
      if (vm_trailing_zeros)
        while (vm % 10 == 0)
          {
            vr_trailing_zeros &= last_removed == 0;
            last_removed = (int) (vr % 10);
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
          }
      if (vr_trailing_zeros && last_removed == 5 && vr % 2 == 0)
        last_removed = 4;
      output = vr + ((vr == vm && (!even || !vm_trailing_zeros)) || last_removed >= 5);
    }
  else
    {
      int round_up = 0;

      while (vp / 10 > vm / 10)
        {
          round_up = vr % 10 >= 5;
          vr /= 10;
          vp /= 10;
          vm /= 10;
          removed++;
        }
      output = vr + (vr == vm || round_up);
    }
  while (output % 10 == 0)
    {
      output /= 10;
      removed++;
    }
  *digits = output;
  *exponent = e10 + removed;
}

/* ---- the text ---- */

/* "%.*g" of @digits × 10^@exponent, with the precision "%.15g", "%.16g"
 * or "%.17g" would need (15, or more digits where @digits has them),
 * trailing zeros dropped as %g drops them; returns the length written. */
static size_t
write_g (char     *out,
         int       negative,
         uint64_t  digits,
         int       exponent)
{
  static const char pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
  char text[24];
  char *t = text + sizeof text;
  int count, lead, precision;
  char *p = out;

  /* the digits, right to left, two at a time */
  while (digits >= 100)
    {
      t -= 2;
      memcpy (t, pairs + 2 * (digits % 100), 2);
      digits /= 100;
    }
  if (digits >= 10)
    {
      t -= 2;
      memcpy (t, pairs + 2 * digits, 2);
    }
  else
    *--t = (char) ('0' + digits);
  count = (int) (text + sizeof text - t);
  precision = count > 15 ? count : 15;
  /* the decimal exponent of the first digit */
  lead = exponent + count - 1;
  if (negative)
    *p++ = '-';
  if (lead < -4 || lead >= precision)
    {
      int e = lead < 0 ? -lead : lead;

      *p++ = t[0];
      if (count > 1)
        {
          *p++ = '.';
          memcpy (p, t + 1, count - 1);
          p += count - 1;
        }
      *p++ = 'e';
      *p++ = lead < 0 ? '-' : '+';
      if (e >= 100)
        *p++ = (char) ('0' + e / 100);
      memcpy (p, pairs + 2 * (e % 100), 2);
      p += 2;
    }
  else if (lead < 0)
    {
      *p++ = '0';
      *p++ = '.';
      memset (p, '0', -lead - 1);
      p += -lead - 1;
      memcpy (p, t, count);
      p += count;
    }
  else if (count <= lead + 1)
    {
      memcpy (p, t, count);
      p += count;
      memset (p, '0', lead + 1 - count);
      p += lead + 1 - count;
    }
  else
    {
      memcpy (p, t, lead + 1);
      p += lead + 1;
      *p++ = '.';
      memcpy (p, t + lead + 1, count - lead - 1);
      p += count - lead - 1;
    }
  return (size_t) (p - out);
}

void
tprof_append_exact_double (GString *out,
                           double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  uint64_t digits;
  int exponent;

  if (!isfinite (value))
    {
      g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.17g", value));
      return;
    }
  if (value == 0)
    {
      g_string_append (out, signbit (value) ? "-0" : "0");
      return;
    }
  shortest_digits (value, &digits, &exponent);
  g_string_append_len (out, buf, (gssize) write_g (buf, signbit (value) != 0, digits, exponent));
}
