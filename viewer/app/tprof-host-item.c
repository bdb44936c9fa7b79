/* tprof-host-item.c — TprofHostItem: a host of the rank filter list; "active" and "inconsistent" are bound to its check button. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-host-item.h"
#include "tprof-plot.h"

struct _TprofHostItem
{
  GObject       parent_instance;
  gsize         group;
  char         *label;
  const gint32 *ranks;
  gsize         n_ranks;
  gboolean      active;
  gboolean      inconsistent;
  GListModel   *children;
};

enum {
  PROP_0,
  PROP_LABEL,
  PROP_ACTIVE,
  PROP_INCONSISTENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TprofHostItem, tprof_host_item, G_TYPE_OBJECT)

static void
tprof_host_item_finalize (GObject *object)
{
  TprofHostItem *self = (TprofHostItem *)object;

  g_free (self->label);
  g_clear_object (&self->children);

  G_OBJECT_CLASS (tprof_host_item_parent_class)->finalize (object);
}

static void
tprof_host_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TprofHostItem *self = TPROF_HOST_ITEM (object);

  switch (prop_id)
    {
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_ACTIVE:
      g_value_set_boolean (value, self->active);
      break;
    case PROP_INCONSISTENT:
      g_value_set_boolean (value, self->inconsistent);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_host_item_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TprofHostItem *self = TPROF_HOST_ITEM (object);

  switch (prop_id)
    {
    case PROP_ACTIVE:
      /* a click: the host's ranks all follow, so it is no longer mixed */
      _tprof_host_item_set_state (self, g_value_get_boolean (value), FALSE);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_host_item_class_init (TprofHostItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tprof_host_item_finalize;
  object_class->get_property = tprof_host_item_get_property;
  object_class->set_property = tprof_host_item_set_property;

  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ACTIVE] =
    g_param_spec_boolean ("active", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INCONSISTENT] =
    g_param_spec_boolean ("inconsistent", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tprof_host_item_init (TprofHostItem *self)
{
  self->active = TRUE;
}

TprofHostItem *
_tprof_host_item_new (gsize         group,
                      const char   *name,
                      const gint32 *ranks,
                      gsize         n_ranks)
{
  TprofHostItem *self = g_object_new (TPROF_TYPE_HOST_ITEM, NULL);
  g_autofree char *escaped = tprof_escape_text (name);
  g_autofree char *expr = tprof_rank_expr_format (ranks, n_ranks);

  self->group = group;
  self->ranks = ranks;
  self->n_ranks = n_ranks;
  /* Translators: a host in the rank filter list, then its ranks ("512-519") */
  self->label = g_strdup_printf (_("%s · ranks %s"), escaped, expr);
  return self;
}

const gint32 *
_tprof_host_item_get_ranks (TprofHostItem *self,
                            gsize         *n_ranks)
{
  g_return_val_if_fail (TPROF_IS_HOST_ITEM (self), NULL);
  *n_ranks = self->n_ranks;
  return self->ranks;
}

const char *
_tprof_host_item_get_label (TprofHostItem *self)
{
  g_return_val_if_fail (TPROF_IS_HOST_ITEM (self), NULL);
  return self->label;
}

gboolean
_tprof_host_item_get_active (TprofHostItem *self)
{
  g_return_val_if_fail (TPROF_IS_HOST_ITEM (self), FALSE);
  return self->active;
}

void
_tprof_host_item_set_state (TprofHostItem *self,
                            gboolean       active,
                            gboolean       inconsistent)
{
  g_return_if_fail (TPROF_IS_HOST_ITEM (self));

  active = !!active;
  inconsistent = !!inconsistent;
  /* "inconsistent" first: whoever hears "active" sees the whole state */
  if (self->inconsistent != inconsistent)
    {
      self->inconsistent = inconsistent;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INCONSISTENT]);
    }
  if (self->active != active)
    {
      self->active = active;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
    }
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
