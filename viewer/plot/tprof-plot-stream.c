/* tprof-plot-stream.c — an export written piece by piece (gzip-compressed on request) into a temporary file renamed into place at the end, so that a big export never sits whole in memory. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <zlib.h>

#include <glib/gi18n-lib.h>

#include "tprof-text-private.h"

struct _TprofPlotStream
{
  TprofAtomicFile file;
  gboolean        compress;
  z_stream        z;
  guint8          chunk[1 << 16];
};

TprofPlotStream *
tprof_plot_stream_open (const char  *path,
                        gboolean     compress,
                        GError     **error)
{
  TprofPlotStream *stream;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stream = g_new0 (TprofPlotStream, 1);
  stream->compress = compress;
  /* 15 + 16: a gzip header and trailer around the deflate stream */
  if (compress && deflateInit2 (&stream->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                                Z_DEFAULT_STRATEGY) != Z_OK)
    {
      _tprof_atomic_file_set_error (error, path, g_strerror (ENOMEM));
      g_free (stream);
      return NULL;
    }
  if (!_tprof_atomic_file_open (&stream->file, path, error))
    {
      if (compress)
        deflateEnd (&stream->z);
      g_free (stream);
      return NULL;
    }
  return stream;
}

static gboolean
write_raw (TprofPlotStream  *stream,
           const void       *data,
           gsize             length,
           GError          **error)
{
  if (length > 0 && fwrite (data, 1, length, stream->file.stream) != length)
    {
      _tprof_atomic_file_set_error (error, stream->file.path, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* Feeds @length bytes to deflate (@flush: Z_NO_FLUSH, or Z_FINISH at the
 * end) and writes what comes out. */
static gboolean
write_compressed (TprofPlotStream  *stream,
                  const void       *data,
                  gsize             length,
                  int               flush,
                  GError          **error)
{
  const guint8 *next = data;
  gsize left = length;

  do
    {
      int rc;

      if (stream->z.avail_in == 0 && left > 0)
        {
          uInt take = (uInt) MIN (left, (gsize) G_MAXUINT32 / 2);

          stream->z.next_in = (Bytef *) next;
          stream->z.avail_in = take;
          next += take;
          left -= take;
        }
      stream->z.next_out = stream->chunk;
      stream->z.avail_out = sizeof stream->chunk;
      rc = deflate (&stream->z, left == 0 ? flush : Z_NO_FLUSH);
      if (rc == Z_STREAM_ERROR)
        {
          _tprof_atomic_file_set_error (error, stream->file.path, _("the compression failed"));
          return FALSE;
        }
      if (!write_raw (stream, stream->chunk, sizeof stream->chunk - stream->z.avail_out, error))
        return FALSE;
      if (rc == Z_STREAM_END)
        return TRUE;
    }
  while (stream->z.avail_out == 0 || stream->z.avail_in > 0 || left > 0);
  return TRUE;
}

gboolean
tprof_plot_stream_write (TprofPlotStream  *stream,
                         const void       *data,
                         gsize             length,
                         GError          **error)
{
  g_return_val_if_fail (stream != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (stream->compress)
    return length == 0 || write_compressed (stream, data, length, Z_NO_FLUSH, error);
  return write_raw (stream, data, length, error);
}

gboolean
tprof_plot_stream_commit (TprofPlotStream  *stream,
                          GError          **error)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (stream != NULL, FALSE);

  if (stream->compress)
    {
      ok = write_compressed (stream, NULL, 0, Z_FINISH, error);
      deflateEnd (&stream->z);
    }
  if (ok)
    ok = _tprof_atomic_file_commit (&stream->file, error);
  else
    _tprof_atomic_file_abort (&stream->file);
  g_free (stream);
  return ok;
}

void
tprof_plot_stream_abort (TprofPlotStream *stream)
{
  if (stream == NULL)
    return;
  if (stream->compress)
    deflateEnd (&stream->z);
  _tprof_atomic_file_abort (&stream->file);
  g_free (stream);
}
