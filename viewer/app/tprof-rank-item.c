/* tprof-rank-item.c — TprofRankItem: a rank of the filter list; "active" is bound to its check button. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-rank-item.h"

struct _TprofRankItem
{
  GObject   parent_instance;
  int       rank;
  char     *label;
  gboolean  active;
};

enum {
  PROP_0,
  PROP_RANK,
  PROP_LABEL,
  PROP_ACTIVE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TprofRankItem, tprof_rank_item, G_TYPE_OBJECT)

static void
tprof_rank_item_finalize (GObject *object)
{
  TprofRankItem *self = (TprofRankItem *)object;

  g_free (self->label);

  G_OBJECT_CLASS (tprof_rank_item_parent_class)->finalize (object);
}

static void
tprof_rank_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TprofRankItem *self = TPROF_RANK_ITEM (object);

  switch (prop_id)
    {
    case PROP_RANK:
      g_value_set_int (value, self->rank);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_ACTIVE:
      g_value_set_boolean (value, self->active);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_rank_item_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TprofRankItem *self = TPROF_RANK_ITEM (object);

  switch (prop_id)
    {
    case PROP_ACTIVE:
      _tprof_rank_item_set_active (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_rank_item_class_init (TprofRankItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tprof_rank_item_finalize;
  object_class->get_property = tprof_rank_item_get_property;
  object_class->set_property = tprof_rank_item_set_property;

  properties[PROP_RANK] =
    g_param_spec_int ("rank", NULL, NULL, 0, G_MAXINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ACTIVE] =
    g_param_spec_boolean ("active", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tprof_rank_item_init (TprofRankItem *self)
{
  self->active = TRUE;
}

TprofRankItem *
_tprof_rank_item_new (int         rank,
                      const char *hostname)
{
  TprofRankItem *self = g_object_new (TPROF_TYPE_RANK_ITEM, NULL);

  self->rank = rank;
  if (hostname != NULL && hostname[0] != '\0')
    /* Translators: a rank in the rank filter list, then the host it ran on */
    self->label = g_strdup_printf (_("Rank %d · %s"), rank, hostname);
  else
    self->label = g_strdup_printf (_("Rank %d"), rank);
  return self;
}

int
_tprof_rank_item_get_rank (TprofRankItem *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_ITEM (self), -1);
  return self->rank;
}

const char *
_tprof_rank_item_get_label (TprofRankItem *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_ITEM (self), NULL);
  return self->label;
}

gboolean
_tprof_rank_item_get_active (TprofRankItem *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_ITEM (self), FALSE);
  return self->active;
}

void
_tprof_rank_item_set_active (TprofRankItem *self,
                             gboolean       active)
{
  g_return_if_fail (TPROF_IS_RANK_ITEM (self));

  active = !!active;
  if (self->active == active)
    return;
  self->active = active;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
}
