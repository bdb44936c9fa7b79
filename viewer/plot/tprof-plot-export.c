/* tprof-plot-export.c — a chart rendered to PNG, SVG or PDF at a given size, written atomically. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

/* Exports above this many pixels a side would need gigabytes of memory. */
#define MAX_EXPORT_SIDE 20000

TprofPlotFormat
tprof_plot_format_from_path (const char *path)
{
  static const struct { const char *suffix; TprofPlotFormat format; } suffixes[] = {
    { ".png", TPROF_PLOT_FORMAT_PNG },
    { ".svg", TPROF_PLOT_FORMAT_SVG },
    { ".pdf", TPROF_PLOT_FORMAT_PDF },
    { ".csv", TPROF_PLOT_FORMAT_CSV },
  };
  char *lower;
  TprofPlotFormat format = TPROF_PLOT_FORMAT_UNKNOWN;

  if (path == NULL)
    return TPROF_PLOT_FORMAT_UNKNOWN;
  lower = g_ascii_strdown (path, -1);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (lower, suffixes[i].suffix))
      format = suffixes[i].format;
  g_free (lower);
  return format;
}

/* Where cairo's output goes, and why the first failed write failed:
 * cairo itself says only "error while writing to output stream". */
typedef struct
{
  FILE *stream;
  int   write_errno;
} ExportSink;

static cairo_status_t
write_to_stream (void                *closure,
                 const unsigned char *data,
                 unsigned int         length)
{
  ExportSink *sink = closure;

  if (fwrite (data, 1, length, sink->stream) == length)
    return CAIRO_STATUS_SUCCESS;
  if (sink->write_errno == 0)
    sink->write_errno = errno != 0 ? errno : EIO;
  return CAIRO_STATUS_WRITE_ERROR;
}

static cairo_surface_t *
create_surface (TprofPlotFormat  format,
                ExportSink      *stream,
                int              width,
                int              height)
{
  cairo_surface_t *surface = NULL;

  switch (format)
    {
    case TPROF_PLOT_FORMAT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      break;
    case TPROF_PLOT_FORMAT_SVG:
      surface = cairo_svg_surface_create_for_stream (write_to_stream, stream, width, height);
      /* width="800px", so that browsers show it at the requested size */
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
      break;
    case TPROF_PLOT_FORMAT_PDF:
      surface = cairo_pdf_surface_create_for_stream (write_to_stream, stream, width, height);
      break;
    case TPROF_PLOT_FORMAT_CSV:
    case TPROF_PLOT_FORMAT_UNKNOWN:
    default:
      break;
    }
  return surface;
}

static gboolean
render (TprofPlotFormat     format,
        ExportSink         *stream,
        int                 width,
        int                 height,
        TprofPlotDrawFunc   draw,
        gpointer            user_data,
        const char        **reason)
{
  cairo_surface_t *surface = create_surface (format, stream, width, height);
  cairo_status_t status;
  cairo_t *cr;

  cr = cairo_create (surface);
  draw (cr, width, height, user_data);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && format == TPROF_PLOT_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, write_to_stream, stream);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  /* cairo's PDF surface may finish without reporting a failed write. */
  if (stream->write_errno != 0)
    *reason = g_strerror (stream->write_errno);
  else if (status != CAIRO_STATUS_SUCCESS)
    *reason = cairo_status_to_string (status);
  return status == CAIRO_STATUS_SUCCESS && stream->write_errno == 0;
}

gboolean
tprof_plot_export (const char         *path,
                   int                 width,
                   int                 height,
                   TprofPlotDrawFunc   draw,
                   gpointer            user_data,
                   GError            **error)
{
  TprofPlotFormat format;
  TprofAtomicFile file;
  ExportSink sink = { 0 };
  const char *reason = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (draw != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  format = tprof_plot_format_from_path (path);
  if (format != TPROF_PLOT_FORMAT_PNG && format != TPROF_PLOT_FORMAT_SVG
      && format != TPROF_PLOT_FORMAT_PDF)
    {
      g_set_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_FORMAT,
                   _("cannot draw into \"%s\": the name must end in .png, .svg or .pdf"), path);
      return FALSE;
    }
  if (width < 1 || height < 1 || width > MAX_EXPORT_SIDE || height > MAX_EXPORT_SIDE)
    {
      g_set_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_FORMAT,
                   _("cannot draw into \"%s\": %d×%d pixels is not a size between 1 and %d"),
                   path, width, height, MAX_EXPORT_SIDE);
      return FALSE;
    }

  if (!_tprof_atomic_file_open (&file, path, error))
    return FALSE;
  sink.stream = file.stream;
  if (!render (format, &sink, width, height, draw, user_data, &reason))
    {
      _tprof_atomic_file_set_error (error, path, reason);
      _tprof_atomic_file_abort (&file);
      return FALSE;
    }
  return _tprof_atomic_file_commit (&file, error);
}

gboolean
tprof_plot_save_bytes (const char  *path,
                       const void  *data,
                       gsize        length,
                       GError     **error)
{
  TprofAtomicFile file;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_tprof_atomic_file_open (&file, path, error))
    return FALSE;
  if (length > 0 && fwrite (data, 1, length, file.stream) != length)
    {
      _tprof_atomic_file_set_error (error, path, g_strerror (errno));
      _tprof_atomic_file_abort (&file);
      return FALSE;
    }
  return _tprof_atomic_file_commit (&file, error);
}

gboolean
tprof_plot_save_text (const char  *path,
                      const char  *text,
                      GError     **error)
{
  g_return_val_if_fail (text != NULL, FALSE);
  return tprof_plot_save_bytes (path, text, strlen (text), error);
}
