/* tprof-host-item.c — TprofHostItem: a host of the rank filter list, labelled with its ranks, holding their rows once expanded. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-host-item.h"
#include "tprof-plot.h"

struct _TprofHostItem
{
  TprofCheckItem  parent_instance;
  GListModel     *children;
};

G_DEFINE_FINAL_TYPE (TprofHostItem, tprof_host_item, TPROF_TYPE_CHECK_ITEM)

static void
tprof_host_item_dispose (GObject *object)
{
  TprofHostItem *self = (TprofHostItem *)object;

  g_clear_object (&self->children);

  G_OBJECT_CLASS (tprof_host_item_parent_class)->dispose (object);
}

static void
tprof_host_item_class_init (TprofHostItemClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tprof_host_item_dispose;
}

static void
tprof_host_item_init (TprofHostItem *self)
{
}

TprofHostItem *
_tprof_host_item_new (GByteArray   *mask,
                      const char   *name,
                      const gint32 *ranks,
                      gsize         n_ranks)
{
  TprofHostItem *self = g_object_new (TPROF_TYPE_HOST_ITEM, NULL);
  g_autofree char *escaped = tprof_escape_text (name);
  g_autofree char *expr = tprof_rank_expr_format (ranks, n_ranks);
  /* Translators: a host in the rank filter list, then its ranks ("512-519") */
  char *label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · rank %s", "%s · ranks %s", n_ranks),
                                 escaped, expr);

  _tprof_check_item_setup (TPROF_CHECK_ITEM (self), mask, ranks, n_ranks, label);
  return self;
}

GListModel *
_tprof_host_item_get_children (TprofHostItem *self)
{
  g_return_val_if_fail (TPROF_IS_HOST_ITEM (self), NULL);
  return self->children;
}

void
_tprof_host_item_set_children (TprofHostItem *self,
                               GListModel    *children)
{
  g_return_if_fail (TPROF_IS_HOST_ITEM (self));
  g_set_object (&self->children, children);
}
