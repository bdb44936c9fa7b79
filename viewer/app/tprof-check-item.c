/* tprof-check-item.c — TprofCheckItem: the label, "active" and "inconsistent" properties shared by host and rank rows. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include "tprof-check-item.h"

typedef struct
{
  GByteArray   *mask;     /* the filter's: one byte per rank, shared */
  const gint32 *ranks;    /* not owned: they outlive the item */
  gsize         n_ranks;
  char         *label;
} TprofCheckItemPrivate;

enum {
  PROP_0,
  PROP_LABEL,
  PROP_ACTIVE,
  PROP_INCONSISTENT,
  N_PROPS
};

enum {
  TOGGLED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_TYPE_WITH_PRIVATE (TprofCheckItem, tprof_check_item, G_TYPE_OBJECT)

/* How many of the item's ranks the mask shows. A rank beyond the mask
 * (an item of a profile just replaced, still bound) counts as hidden. */
static gsize
count_shown (TprofCheckItemPrivate *priv)
{
  gsize shown = 0;

  if (priv->mask == NULL)
    return 0;
  for (gsize i = 0; i < priv->n_ranks; i++)
    shown += (guint) priv->ranks[i] < priv->mask->len && priv->mask->data[priv->ranks[i]];
  return shown;
}

static void
tprof_check_item_finalize (GObject *object)
{
  TprofCheckItemPrivate *priv = tprof_check_item_get_instance_private (TPROF_CHECK_ITEM (object));

  g_clear_pointer (&priv->mask, g_byte_array_unref);
  g_free (priv->label);

  G_OBJECT_CLASS (tprof_check_item_parent_class)->finalize (object);
}

static void
tprof_check_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TprofCheckItem *self = TPROF_CHECK_ITEM (object);
  TprofCheckItemPrivate *priv = tprof_check_item_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_LABEL:
      g_value_set_string (value, priv->label);
      break;
    case PROP_ACTIVE:
      g_value_set_boolean (value, _tprof_check_item_get_active (self));
      break;
    case PROP_INCONSISTENT:
      g_value_set_boolean (value, _tprof_check_item_get_inconsistent (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_check_item_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_ACTIVE:
      /* a click: the list sets the mask, then notifies */
      g_signal_emit (object, signals[TOGGLED], 0, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_check_item_class_init (TprofCheckItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tprof_check_item_finalize;
  object_class->get_property = tprof_check_item_get_property;
  object_class->set_property = tprof_check_item_set_property;

  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ACTIVE] =
    g_param_spec_boolean ("active", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INCONSISTENT] =
    g_param_spec_boolean ("inconsistent", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[TOGGLED] =
    g_signal_new ("toggled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
tprof_check_item_init (TprofCheckItem *self)
{
}

void
_tprof_check_item_setup (TprofCheckItem *self,
                         GByteArray     *mask,
                         const gint32   *ranks,
                         gsize           n_ranks,
                         char           *label)
{
  TprofCheckItemPrivate *priv = tprof_check_item_get_instance_private (self);

  g_return_if_fail (TPROF_IS_CHECK_ITEM (self));

  g_clear_pointer (&priv->mask, g_byte_array_unref);
  priv->mask = mask != NULL ? g_byte_array_ref (mask) : NULL;
  priv->ranks = ranks;
  priv->n_ranks = n_ranks;
  g_free (priv->label);
  priv->label = label;
}

const gint32 *
_tprof_check_item_get_ranks (TprofCheckItem *self,
                             gsize          *n_ranks)
{
  TprofCheckItemPrivate *priv = tprof_check_item_get_instance_private (self);

  g_return_val_if_fail (TPROF_IS_CHECK_ITEM (self), NULL);
  *n_ranks = priv->n_ranks;
  return priv->ranks;
}

const char *
_tprof_check_item_get_label (TprofCheckItem *self)
{
  TprofCheckItemPrivate *priv = tprof_check_item_get_instance_private (self);

  g_return_val_if_fail (TPROF_IS_CHECK_ITEM (self), NULL);
  return priv->label;
}

gboolean
_tprof_check_item_get_active (TprofCheckItem *self)
{
  TprofCheckItemPrivate *priv = tprof_check_item_get_instance_private (self);

  g_return_val_if_fail (TPROF_IS_CHECK_ITEM (self), FALSE);
  return priv->n_ranks > 0 && count_shown (priv) == priv->n_ranks;
}

gboolean
_tprof_check_item_get_inconsistent (TprofCheckItem *self)
{
  TprofCheckItemPrivate *priv = tprof_check_item_get_instance_private (self);
  gsize shown;

  g_return_val_if_fail (TPROF_IS_CHECK_ITEM (self), FALSE);
  shown = count_shown (priv);
  return shown > 0 && shown < priv->n_ranks;
}

void
_tprof_check_item_notify_state (TprofCheckItem *self)
{
  g_return_if_fail (TPROF_IS_CHECK_ITEM (self));

  /* "inconsistent" first: whoever hears "active" sees the whole state */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INCONSISTENT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
}
