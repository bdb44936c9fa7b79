/* tprof-python-gathered-time.c — GatheredTime: a selection of samples and the engine's statistics of it. */
/* SPDX-License-Identifier: MIT */
#include "tprof-python-private.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  PyObject_HEAD
  PyObject   *owner;      /* keeps the samples alive */
  const void *data;
  Py_ssize_t  shape;
  Py_ssize_t  stride;
  char        format[2];
} TprofPySampleBuffer;

#define SELF_GT(self) (((TprofPyGatheredTime *) (self))->gt)

PyObject *
_tprof_py_gathered_time_wrap (TprofGatheredTime *gt, PyObject *owner)
{
  TprofPyGatheredTime *self;

  if (gt == NULL)
    return PyErr_NoMemory ();
  self = (TprofPyGatheredTime *) _tprof_py_gathered_time_class->tp_alloc (_tprof_py_gathered_time_class, 0);
  if (self == NULL)
    {
      if (owner == NULL)
        tprof_gathered_time_free (gt);
      return NULL;
    }
  self->gt = gt;
  Py_XINCREF (owner);
  self->owner = owner;
  return (PyObject *) self;
}

/* Reads a contiguous 1-D buffer of @format ("d" or "i") into @view. */
static int
get_samples (PyObject *obj, const char *what, const char *format, Py_ssize_t itemsize, Py_buffer *view)
{
  if (PyObject_GetBuffer (obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
    {
      PyErr_Clear ();
      PyErr_Format (PyExc_TypeError, "%s must be a 1-D contiguous array of %s", what,
                    format[0] == 'd' ? "float64" : "int32");
      return -1;
    }
  if (view->ndim > 1 || view->itemsize != itemsize || view->format == NULL
      || (view->format[0] != format[0] && !(view->format[0] == '<' && view->format[1] == format[0])))
    {
      PyErr_Format (PyExc_TypeError, "%s must be a 1-D array of %s, not format '%s'", what,
                    format[0] == 'd' ? "float64" : "int32", view->format ? view->format : "B");
      PyBuffer_Release (view);
      return -1;
    }
  return 0;
}

static int
check_samples (const double *times, const int32_t *ranks, Py_ssize_t n)
{
  for (Py_ssize_t i = 0; i < n; i++)
    {
      if (!(isfinite (times[i]) && times[i] >= 0))
        {
          char value[64];

          snprintf (value, sizeof value, "%g", times[i]);
          PyErr_Format (PyExc_ValueError, "times[%zd] = %s is not a finite time >= 0", i, value);
          return -1;
        }
      if (ranks[i] < 0)
        {
          PyErr_Format (PyExc_ValueError, "ranks[%zd] = %d is negative", i, (int) ranks[i]);
          return -1;
        }
    }
  return 0;
}

static PyObject *
gathered_time_new (PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
  static char *keywords[] = { "times", "ranks", NULL };
  PyObject *times_obj, *ranks_obj;
  Py_buffer times, ranks;
  TprofPyGatheredTime *self = NULL;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "OO:GatheredTime", keywords, &times_obj, &ranks_obj))
    return NULL;
  if (get_samples (times_obj, "times", "d", sizeof (double), &times) < 0)
    return NULL;
  if (get_samples (ranks_obj, "ranks", "i", sizeof (int32_t), &ranks) < 0)
    goto out_times;
  if (times.len / (Py_ssize_t) sizeof (double) != ranks.len / (Py_ssize_t) sizeof (int32_t))
    {
      PyErr_Format (PyExc_ValueError, "times and ranks differ in length (%zd and %zd)",
                    times.len / (Py_ssize_t) sizeof (double), ranks.len / (Py_ssize_t) sizeof (int32_t));
      goto out;
    }
  if (check_samples (times.buf, ranks.buf, times.len / (Py_ssize_t) sizeof (double)) < 0)
    goto out;
  self = (TprofPyGatheredTime *) type->tp_alloc (type, 0);
  if (self == NULL)
    goto out;
  self->gt = tprof_gathered_time_new (times.buf, ranks.buf, (size_t) times.len / sizeof (double));
  if (self->gt == NULL)
    {
      Py_CLEAR (self);
      PyErr_NoMemory ();
    }
out:
  PyBuffer_Release (&ranks);
out_times:
  PyBuffer_Release (&times);
  return (PyObject *) self;
}

static void
gathered_time_dealloc (TprofPyGatheredTime *self)
{
  if (self->owner != NULL)
    Py_DECREF (self->owner);
  else
    tprof_gathered_time_free (self->gt);
  Py_TYPE (self)->tp_free ((PyObject *) self);
}

static PyObject *
gathered_time_count (PyObject *self, PyObject *unused)
{
  return PyLong_FromSize_t (tprof_gathered_time_count (SELF_GT (self)));
}

static PyObject *
gathered_time_rank_count (PyObject *self, PyObject *unused)
{
  return PyLong_FromSize_t (tprof_gathered_time_rank_count (SELF_GT (self)));
}

#define STAT(fn)                                                   \
  static PyObject *                                                \
  gathered_time_##fn (PyObject *self, PyObject *unused)            \
  {                                                                \
    return PyFloat_FromDouble (tprof_gathered_time_##fn (SELF_GT (self))); \
  }
STAT (sum)
STAT (mean)
STAT (std)
STAT (min)
STAT (max)

static PyObject *
gathered_time_quantile (PyObject *self, PyObject *q_obj)
{
  double q = PyFloat_AsDouble (q_obj);

  if (q == -1.0 && PyErr_Occurred ())
    return NULL;
  if (!(q >= 0 && q <= 1))
    {
      PyErr_Format (PyExc_ValueError, "quantile q must be in [0, 1], not %R", q_obj);
      return NULL;
    }
  return PyFloat_FromDouble (tprof_gathered_time_quantile (SELF_GT (self), q));
}

static PyObject *
gathered_time_median (PyObject *self, PyObject *unused)
{
  return PyFloat_FromDouble (tprof_gathered_time_quantile (SELF_GT (self), 0.5));
}

static PyObject *
gathered_time_get_rank (PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  int32_t *ranks = PyMem_Malloc ((size_t) (nargs > 0 ? nargs : 1) * sizeof *ranks);
  PyObject *result;

  if (ranks == NULL)
    return PyErr_NoMemory ();
  for (Py_ssize_t i = 0; i < nargs; i++)
    {
      long rank;

      if (!PyIndex_Check (args[i]))
        {
          PyErr_Format (PyExc_TypeError, "get_rank: a rank must be an int, not %.80s",
                        Py_TYPE (args[i])->tp_name);
          goto fail;
        }
      rank = PyLong_AsLong (args[i]);
      if (rank == -1 && PyErr_Occurred ())
        goto fail;
      if (rank < 0 || rank > INT32_MAX)
        {
          PyErr_Format (PyExc_ValueError, "get_rank: %ld is not a rank (0 <= rank <= %d)", rank, INT32_MAX);
          goto fail;
        }
      ranks[i] = (int32_t) rank;
    }
  result = _tprof_py_gathered_time_wrap (tprof_gathered_time_get_rank (SELF_GT (self), ranks, (size_t) nargs),
                                         NULL);
  PyMem_Free (ranks);
  return result;
fail:
  PyMem_Free (ranks);
  return NULL;
}

static Py_ssize_t
gathered_time_length (PyObject *self)
{
  return (Py_ssize_t) tprof_gathered_time_count (SELF_GT (self));
}

static int
gathered_time_bool (PyObject *self)
{
  return !tprof_gathered_time_is_empty (SELF_GT (self));
}

static PyObject *
gathered_time_subscript (PyObject *self, PyObject *item)
{
  Py_ssize_t start, stop, step, n = gathered_time_length (self);

  if (PySlice_Check (item))
    {
      if (PySlice_Unpack (item, &start, &stop, &step) < 0)
        return NULL;
      /* bounds made explicit and in range; the library takes -1 as "from
       * the end", so an empty slice and "down to the first" say so plainly */
      if (PySlice_AdjustIndices (n, &start, &stop, step) == 0)
        start = stop = 0, step = 1;
      else if (step < 0 && stop < 0)
        stop = TPROF_SLICE_DEFAULT;
      return _tprof_py_gathered_time_wrap (tprof_gathered_time_slice (SELF_GT (self), start, stop, step), NULL);
    }
  if (PyIndex_Check (item))
    {
      Py_ssize_t i = PyNumber_AsSsize_t (item, PyExc_IndexError);

      if (i == -1 && PyErr_Occurred ())
        return NULL;
      if (i < -n || i >= n)
        {
          PyErr_Format (PyExc_IndexError, "sample index %zd out of range for %zd samples", i, n);
          return NULL;
        }
      if (i < 0)
        i += n;
      return _tprof_py_gathered_time_wrap (tprof_gathered_time_slice (SELF_GT (self), i, i + 1, 1), NULL);
    }
  PyErr_Format (PyExc_TypeError, "GatheredTime indices must be int or slice, not %.80s",
                Py_TYPE (item)->tp_name);
  return NULL;
}

static PyObject *
sample_buffer_new (PyObject *owner, const void *data, Py_ssize_t n, Py_ssize_t itemsize, char format)
{
  static const double empty;
  TprofPySampleBuffer *buffer = PyObject_New (TprofPySampleBuffer, &_tprof_py_sample_buffer_type);

  if (buffer == NULL)
    return NULL;
  Py_INCREF (owner);
  buffer->owner = owner;
  buffer->data = data != NULL ? data : &empty;
  buffer->shape = n;
  buffer->stride = itemsize;
  buffer->format[0] = format;
  buffer->format[1] = '\0';
  return (PyObject *) buffer;
}

static PyObject *
gathered_time_times_buffer (PyObject *self, PyObject *unused)
{
  return sample_buffer_new (self, tprof_gathered_time_times (SELF_GT (self)), gathered_time_length (self),
                            sizeof (double), 'd');
}

static PyObject *
gathered_time_ranks_buffer (PyObject *self, PyObject *unused)
{
  return sample_buffer_new (self, tprof_gathered_time_ranks (SELF_GT (self)), gathered_time_length (self),
                            sizeof (int32_t), 'i');
}

static PyObject *
gathered_time_starts_buffer (PyObject *self, PyObject *unused)
{
  const double *starts = tprof_gathered_time_starts (SELF_GT (self));

  if (starts == NULL)
    Py_RETURN_NONE;
  return sample_buffer_new (self, starts, gathered_time_length (self), sizeof (double), 'd');
}

static PyObject *
gathered_time_threads_buffer (PyObject *self, PyObject *unused)
{
  const int32_t *threads = tprof_gathered_time_threads (SELF_GT (self));

  if (threads == NULL)
    Py_RETURN_NONE;
  return sample_buffer_new (self, threads, gathered_time_length (self), sizeof (int32_t), 'i');
}

/* A malloc'd copy of @view's @n items of @size bytes; NULL with MemoryError. */
static void *
copy_buffer (const Py_buffer *view, size_t n, size_t size)
{
  void *copy = malloc ((n > 0 ? n : 1) * size);

  if (copy == NULL)
    return PyErr_NoMemory ();
  memcpy (copy, view->buf, n * size);
  return copy;
}

/* Attaches copies of @starts_obj and @threads_obj, checked, to @gt; -1
 * with an exception set. */
static int
attach_timeline (TprofGatheredTime *gt, PyObject *starts_obj, PyObject *threads_obj)
{
  Py_buffer starts, threads;
  size_t n = tprof_gathered_time_count (gt);
  double *starts_copy = NULL;
  int32_t *threads_copy = NULL;
  int result = -1;

  if (get_samples (starts_obj, "starts", "d", sizeof (double), &starts) < 0)
    return -1;
  if (get_samples (threads_obj, "threads", "i", sizeof (int32_t), &threads) < 0)
    goto out_starts;
  if ((size_t) starts.len / sizeof (double) != n || (size_t) threads.len / sizeof (int32_t) != n)
    {
      PyErr_Format (PyExc_ValueError, "_set_timeline: starts and threads must have the %zu samples' length", n);
      goto out;
    }
  for (size_t i = 0; i < n; i++)
    if (!isfinite (((const double *) starts.buf)[i]) || ((const int32_t *) threads.buf)[i] < 0)
      {
        PyErr_Format (PyExc_ValueError, "_set_timeline: sample %zu has a non-finite start or a negative thread", i);
        goto out;
      }
  if ((starts_copy = copy_buffer (&starts, n, sizeof (double))) == NULL
      || (threads_copy = copy_buffer (&threads, n, sizeof (int32_t))) == NULL)
    goto out;
  if (!tprof_gathered_time_set_timeline_take (gt, starts_copy, threads_copy))
    {
      PyErr_NoMemory ();
      goto out;
    }
  starts_copy = NULL;
  threads_copy = NULL;
  result = 0;
out:
  free (starts_copy);
  free (threads_copy);
  PyBuffer_Release (&threads);
out_starts:
  PyBuffer_Release (&starts);
  return result;
}

/* _set_timeline(starts, threads): a gather's timeline for these samples,
 * on a selection nobody else holds yet. */
static PyObject *
gathered_time_set_timeline (PyObject *self, PyObject *args)
{
  PyObject *starts, *threads;

  if (!PyArg_ParseTuple (args, "OO:_set_timeline", &starts, &threads))
    return NULL;
  if (attach_timeline (SELF_GT (self), starts, threads) < 0)
    return NULL;
  Py_RETURN_NONE;
}

/* _recorded(): [(rank, recorded, sum, min, max)] of sampled capture, [] when
 * the samples are all that was recorded. */
static PyObject *
gathered_time_recorded (PyObject *self, PyObject *unused)
{
  const TprofRankRecorded *rec = NULL;
  size_t n = tprof_gathered_time_recorded (SELF_GT (self), &rec);
  PyObject *list = PyList_New ((Py_ssize_t) n);

  for (size_t i = 0; list != NULL && i < n; i++)
    {
      PyObject *item = Py_BuildValue ("(iKddd)", (int) rec[i].rank, (unsigned long long) rec[i].recorded,
                                      rec[i].sum, rec[i].min, rec[i].max);

      if (item == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, (Py_ssize_t) i, item);
    }
  return list;
}

/* _set_recorded([(rank, recorded, sum, min, max)]): what each rank recorded,
 * ascending by rank, of which these samples are a subset. */
static PyObject *
gathered_time_set_recorded (PyObject *self, PyObject *list)
{
  Py_ssize_t n;
  TprofRankRecorded *rec;
  bool ok;

  if (!PyList_Check (list))
    {
      PyErr_SetString (PyExc_TypeError, "_set_recorded: expected a list of (rank, recorded, sum, min, max)");
      return NULL;
    }
  n = PyList_GET_SIZE (list);
  rec = PyMem_Calloc ((size_t) (n > 0 ? n : 1), sizeof *rec);
  if (rec == NULL)
    return PyErr_NoMemory ();
  for (Py_ssize_t i = 0; i < n; i++)
    {
      int rank;
      unsigned long long recorded;

      if (!PyArg_ParseTuple (PyList_GET_ITEM (list, i), "iKddd:_set_recorded", &rank, &recorded, &rec[i].sum,
                             &rec[i].min, &rec[i].max))
        {
          PyMem_Free (rec);
          return NULL;
        }
      if (rank < 0 || (i > 0 && rank <= rec[i - 1].rank))
        {
          PyErr_Format (PyExc_ValueError, "_set_recorded: entry %zd: rank %d is not ascending", i, rank);
          PyMem_Free (rec);
          return NULL;
        }
      rec[i].rank = rank;
      rec[i].recorded = recorded;
    }
  ok = tprof_gathered_time_set_recorded (SELF_GT (self), rec, (size_t) n);
  PyMem_Free (rec);
  if (!ok)
    return PyErr_NoMemory ();
  Py_RETURN_NONE;
}

static PyObject *
rank_summaries (PyObject *self, PyObject *unused)
{
  TprofRankSummary *summaries = NULL;
  size_t n = tprof_gathered_time_rank_summaries (SELF_GT (self), &summaries);
  PyObject *list;

  if (n == (size_t) -1)
    return PyErr_NoMemory ();
  list = PyList_New ((Py_ssize_t) n);
  for (size_t i = 0; list != NULL && i < n; i++)
    {
      TprofRankSummary *s = &summaries[i];
      PyObject *item = Py_BuildValue ("(inddddd)", (int) s->rank, (Py_ssize_t) s->count, s->sum, s->mean,
                                      s->std, s->min, s->max);

      if (item == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, (Py_ssize_t) i, item);
    }
  free (summaries);
  return list;
}

static PyObject *
u64_list (const uint64_t *values, size_t n)
{
  PyObject *list = PyList_New ((Py_ssize_t) n);

  for (size_t i = 0; list != NULL && i < n; i++)
    {
      PyObject *item = PyLong_FromUnsignedLongLong (values[i]);

      if (item == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, (Py_ssize_t) i, item);
    }
  return list;
}

static PyObject *
histogram_tuple (const TprofHistogram *h)
{
  PyObject *edges = PyList_New ((Py_ssize_t) (h->n_bins > 0 ? h->n_bins + 1 : 0));
  PyObject *per_rank = PyDict_New ();

  for (size_t i = 0; edges != NULL && h->n_bins > 0 && i <= h->n_bins; i++)
    PyList_SET_ITEM (edges, (Py_ssize_t) i, PyFloat_FromDouble (h->edges[i]));
  for (size_t r = 0; per_rank != NULL && r < h->n_ranks; r++)
    {
      PyObject *key = PyLong_FromLong (h->ranks[r]);
      PyObject *counts = u64_list (h->rank_counts + r * h->n_bins, h->n_bins);

      if (key == NULL || counts == NULL || PyDict_SetItem (per_rank, key, counts) < 0)
        Py_CLEAR (per_rank);
      Py_XDECREF (key);
      Py_XDECREF (counts);
    }
  if (edges == NULL || per_rank == NULL)
    {
      Py_XDECREF (edges);
      Py_XDECREF (per_rank);
      return NULL;
    }
  return Py_BuildValue ("(NNN)", edges, u64_list (h->counts, h->n_bins), per_rank);
}

static PyObject *
gathered_time_histogram (PyObject *self, PyObject *args)
{
  Py_ssize_t bins;
  int separate_ranks;
  TprofHistogram *h;
  PyObject *result;

  if (!PyArg_ParseTuple (args, "np:_histogram", &bins, &separate_ranks))
    return NULL;
  if (bins < 0)
    {
      PyErr_Format (PyExc_ValueError, "bins must be a positive int or None, not %zd", bins);
      return NULL;
    }
  h = tprof_histogram_compute (SELF_GT (self), (size_t) bins,
                               separate_ranks ? TPROF_HISTOGRAM_SEPARATE_RANKS : TPROF_HISTOGRAM_DEFAULT);
  if (h == NULL)
    return PyErr_NoMemory ();
  result = histogram_tuple (h);
  tprof_histogram_free (h);
  return result;
}

static PyMethodDef gathered_time_methods[] = {
  { "count", gathered_time_count, METH_NOARGS, "count(): number of samples over all ranks." },
  { "rank_count", gathered_time_rank_count, METH_NOARGS, "rank_count(): number of ranks with samples." },
  { "sum", gathered_time_sum, METH_NOARGS, "sum(): total seconds (numpy's pairwise sum)." },
  { "mean", gathered_time_mean, METH_NOARGS, "mean(): sum / count; nan when empty." },
  { "std", gathered_time_std, METH_NOARGS, "std(): sample standard deviation (N-1); nan when count < 2." },
  { "min", gathered_time_min, METH_NOARGS, "min(): nan when empty." },
  { "max", gathered_time_max, METH_NOARGS, "max(): nan when empty." },
  { "quantile", gathered_time_quantile, METH_O, "quantile(q): numpy's linear quantile, q in [0, 1]." },
  { "median", gathered_time_median, METH_NOARGS, "median(): quantile(0.5)." },
  { "get_rank", (PyCFunction) (void (*) (void)) gathered_time_get_rank, METH_FASTCALL,
    "get_rank(*ranks): the samples of these ranks, in their order." },
  { "_times_buffer", gathered_time_times_buffer, METH_NOARGS, NULL },
  { "_ranks_buffer", gathered_time_ranks_buffer, METH_NOARGS, NULL },
  { "_starts_buffer", gathered_time_starts_buffer, METH_NOARGS, NULL },
  { "_threads_buffer", gathered_time_threads_buffer, METH_NOARGS, NULL },
  { "_set_timeline", gathered_time_set_timeline, METH_VARARGS,
    "_set_timeline(starts, threads): attaches a timeline to a new selection." },
  { "_recorded", gathered_time_recorded, METH_NOARGS,
    "_recorded(): [(rank, recorded, sum, min, max)] of sampled capture." },
  { "_set_recorded", gathered_time_set_recorded, METH_O,
    "_set_recorded([(rank, recorded, sum, min, max)]): what each rank recorded." },
  { "_rank_summaries", rank_summaries, METH_NOARGS,
    "_rank_summaries(): [(rank, count, sum, mean, std, min, max)] ascending by rank." },
  { "_histogram", gathered_time_histogram, METH_VARARGS,
    "_histogram(bins, separate_ranks): (edges, counts, {rank: counts}); bins 0 = auto." },
  { NULL, NULL, 0, NULL },
};

static PyMappingMethods gathered_time_mapping = {
  .mp_length = gathered_time_length,
  .mp_subscript = gathered_time_subscript,
};

static PyNumberMethods gathered_time_number = {
  .nb_bool = gathered_time_bool,
};

PyTypeObject _tprof_py_gathered_time_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "tprof._capture.GatheredTime",
  .tp_basicsize = sizeof (TprofPyGatheredTime),
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "GatheredTime(times, ranks): samples of one operation over ranks.",
  .tp_new = gathered_time_new,
  .tp_dealloc = (destructor) gathered_time_dealloc,
  .tp_methods = gathered_time_methods,
  .tp_as_mapping = &gathered_time_mapping,
  .tp_as_number = &gathered_time_number,
};

static int
sample_buffer_get (TprofPySampleBuffer *self, Py_buffer *view, int flags)
{
  if (flags & PyBUF_WRITABLE)
    {
      PyErr_SetString (PyExc_BufferError, "the samples of a GatheredTime are read-only");
      return -1;
    }
  view->buf = (void *) self->data;
  view->obj = (PyObject *) self;
  Py_INCREF (self);
  view->len = self->shape * self->stride;
  view->readonly = 1;
  view->itemsize = self->stride;
  view->format = (flags & PyBUF_FORMAT) ? self->format : NULL;
  view->ndim = 1;
  view->shape = (flags & PyBUF_ND) ? &self->shape : NULL;
  view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? &self->stride : NULL;
  view->suboffsets = NULL;
  view->internal = NULL;
  return 0;
}

static void
sample_buffer_dealloc (TprofPySampleBuffer *self)
{
  Py_DECREF (self->owner);
  PyObject_Free (self);
}

static PyBufferProcs sample_buffer_procs = {
  .bf_getbuffer = (getbufferproc) sample_buffer_get,
};

PyTypeObject _tprof_py_sample_buffer_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "tprof._capture._SampleBuffer",
  .tp_basicsize = sizeof (TprofPySampleBuffer),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "The samples of a GatheredTime, read-only, without a copy.",
  .tp_dealloc = (destructor) sample_buffer_dealloc,
  .tp_as_buffer = &sample_buffer_procs,
};
