# check-exact-double.py — tprof's exact doubles against Python's repr: the same shortest digits, read back as the same double, in the form "%.15g" gives (then 16, 17 digits).
# SPDX-License-Identifier: MIT
import math
import random
import struct
import subprocess
import sys


def digits_and_exponent(text):
    """The significant digits and the decimal exponent of the first one."""
    text = text.lstrip('-')
    mantissa, _, exp = text.lower().partition('e')
    exponent = int(exp) if exp else 0
    whole, _, frac = mantissa.partition('.')
    digits = (whole + frac).lstrip('0')
    lead = len(whole) - 1 + exponent - (len(whole + frac) - len((whole + frac).lstrip('0')))
    return digits.rstrip('0'), lead


def g_form(negative, digits, lead, precision):
    """"%.*g" of digits × 10^(lead - len(digits) + 1), written here from the digits."""
    sign = '-' if negative else ''
    if lead < -4 or lead >= precision:
        mantissa = digits[0] + ('.' + digits[1:] if len(digits) > 1 else '')
        return '%s%se%s%02d' % (sign, mantissa, '-' if lead < 0 else '+', abs(lead))
    if lead < 0:
        return sign + '0.' + '0' * (-lead - 1) + digits
    if len(digits) <= lead + 1:
        return sign + digits + '0' * (lead + 1 - len(digits))
    return sign + digits[:lead + 1] + '.' + digits[lead + 1:]


def main():
    program = sys.argv[1]
    rng = random.Random(1205)
    values = []
    for _ in range(200000):
        values.append(struct.unpack('<d', struct.pack('<Q', rng.getrandbits(64)))[0])
    for _ in range(50000):   # subnormals
        values.append(struct.unpack('<d', struct.pack('<Q', rng.getrandbits(52)))[0])
    for _ in range(50000):   # durations
        values.append(10 ** rng.uniform(-9, 3))
    values += [2.0 ** e for e in range(-1074, 1024)]
    values += [5e-324, 2.2250738585072009e-308, 2.2250738585072014e-308, 1.7976931348623157e308,
               0.1, 1e16, 1e22, 1e23, 9007199254740993.0, 123456.5, 1 / 3]
    values = [v for v in values if v == v and abs(v) != float('inf') and v != 0]
    hexes = ''.join('%016x\n' % struct.unpack('<Q', struct.pack('<d', v))[0] for v in values)
    out = subprocess.run([program, '--print'], input=hexes, capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert len(lines) == len(values), (len(lines), len(values))
    bad = 0
    for value, text in zip(values, lines):
        want_digits, want_lead = digits_and_exponent(repr(value))
        got_digits, got_lead = digits_and_exponent(text)
        precision = max(15, len(want_digits))
        problems = []
        if float(text) != value:
            problems.append('reads back as %r' % float(text))
        if (got_digits, got_lead) != (want_digits, want_lead):
            problems.append('digits %s e%d, repr has %s e%d' % (got_digits, got_lead, want_digits, want_lead))
        form = g_form(value < 0, want_digits, want_lead, precision)
        if text != form:
            problems.append('form: expected %r' % form)
        if (abs(value) >= 2.2250738585072014e-308 and abs(math.frexp(value)[0]) != 0.5
                and text != '%.*g' % (precision, value)):
            problems.append('a normal double, expected %r' % ('%.*g' % (precision, value)))
        if problems:
            bad += 1
            if bad <= 10:
                print('%r -> %r: %s' % (value, text, '; '.join(problems)))
    print('%d values, %d wrong' % (len(values), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
