/* tprof-select.h — in-place selection (k-th smallest) and numpy 'linear' quantiles on scratch arrays. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Reorders @values[0..@n) so that @values[@k] holds what a full ascending
 * sort would put there, with nothing larger before it and nothing smaller
 * after it. O(@n) expected and at worst. Requires @k < @n. */
void _tprof_select_nth (double *values,
                        size_t  n,
                        size_t  k);

/* @out[i] = numpy.quantile (@values, @qs[i]) (method 'linear'); NaN for a
 * @qs[i] outside [0, 1] and for every @qs[i] when @n is 0. @values is
 * scratch: it is reordered. Returns false when memory is exhausted. */
bool _tprof_select_quantiles (double       *values,
                              size_t        n,
                              const double *qs,
                              size_t        n_qs,
                              double       *out);
