/* tprof-operation.c — TprofOperation: the statistics of one operation as properties, for sorters and bindings. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>

#include "tprof-operation.h"

struct _TprofOperation
{
  GObject       parent_instance;
  char         *name;
  guint         index;
  TprofSummary  summary;
  TprofComparison comparison;
  gboolean      compared;
  gboolean      tested;
  gboolean      in_tree;
  gssize        parent;
  double        self_time;
  gboolean      sampled;
  guint64       stored;     /* samples the file keeps of the ranks shown */
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_INDEX,
  PROP_COUNT,
  PROP_RANK_COUNT,
  PROP_SUM,
  PROP_MEAN,
  PROP_STD,
  PROP_MIN,
  PROP_MAX,
  PROP_MEDIAN,
  PROP_P95,
  PROP_P99,
  PROP_IMBALANCE,
  PROP_SLOWEST_RANK,
  PROP_IMBALANCE_TIME,
  PROP_SELF,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TprofOperation, tprof_operation, G_TYPE_OBJECT)

static void
tprof_operation_finalize (GObject *object)
{
  TprofOperation *self = (TprofOperation *)object;

  g_free (self->name);

  G_OBJECT_CLASS (tprof_operation_parent_class)->finalize (object);
}

static void
tprof_operation_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TprofOperation *self = TPROF_OPERATION (object);
  const TprofSummary *s = &self->summary;

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;
    case PROP_COUNT:
      g_value_set_uint64 (value, s->count);
      break;
    case PROP_RANK_COUNT:
      g_value_set_uint64 (value, s->rank_count);
      break;
    case PROP_SUM:
      g_value_set_double (value, s->sum);
      break;
    case PROP_MEAN:
      g_value_set_double (value, s->mean);
      break;
    case PROP_STD:
      g_value_set_double (value, s->std);
      break;
    case PROP_MIN:
      g_value_set_double (value, s->min);
      break;
    case PROP_MAX:
      g_value_set_double (value, s->max);
      break;
    case PROP_MEDIAN:
      g_value_set_double (value, s->median);
      break;
    case PROP_P95:
      g_value_set_double (value, s->p95);
      break;
    case PROP_P99:
      g_value_set_double (value, s->p99);
      break;
    case PROP_IMBALANCE:
      g_value_set_double (value, s->imbalance);
      break;
    case PROP_SLOWEST_RANK:
      g_value_set_int (value, s->slowest_rank);
      break;
    case PROP_IMBALANCE_TIME:
      g_value_set_double (value, s->imbalance_time);
      break;
    case PROP_SELF:
      g_value_set_double (value, self->self_time);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
double_param (const char *name)
{
  return g_param_spec_double (name, NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static void
tprof_operation_class_init (TprofOperationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tprof_operation_finalize;
  object_class->get_property = tprof_operation_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_INDEX] =
    g_param_spec_uint ("index", NULL, NULL, 0, G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_COUNT] =
    g_param_spec_uint64 ("count", NULL, NULL, 0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_RANK_COUNT] =
    g_param_spec_uint64 ("rank-count", NULL, NULL, 0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SUM] = double_param ("sum");
  properties[PROP_MEAN] = double_param ("mean");
  properties[PROP_STD] = double_param ("std");
  properties[PROP_MIN] = double_param ("min");
  properties[PROP_MAX] = double_param ("max");
  properties[PROP_MEDIAN] = double_param ("median");
  properties[PROP_P95] = double_param ("p95");
  properties[PROP_P99] = double_param ("p99");
  properties[PROP_IMBALANCE] = double_param ("imbalance");
  properties[PROP_SLOWEST_RANK] =
    g_param_spec_int ("slowest-rank", NULL, NULL, -1, G_MAXINT, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_IMBALANCE_TIME] = double_param ("imbalance-time");
  properties[PROP_SELF] = double_param ("self");

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tprof_operation_init (TprofOperation *self)
{
  self->parent = -1;
  self->self_time = NAN;
}

TprofOperation *
_tprof_operation_new (const char         *name,
                      guint               index,
                      const TprofSummary *summary)
{
  TprofOperation *self = g_object_new (TPROF_TYPE_OPERATION, NULL);

  /* the format promises UTF-8; a file from elsewhere may not keep the promise */
  self->name = g_utf8_make_valid (name, -1);
  self->index = index;
  self->summary = *summary;

  return self;
}

const char *
_tprof_operation_get_name (TprofOperation *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION (self), NULL);
  return self->name;
}

guint
_tprof_operation_get_index (TprofOperation *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION (self), 0);
  return self->index;
}

const TprofSummary *
_tprof_operation_get_summary (TprofOperation *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION (self), NULL);
  return &self->summary;
}

void
_tprof_operation_set_comparison (TprofOperation        *self,
                                 const TprofComparison *comparison,
                                 gboolean               tested)
{
  g_return_if_fail (TPROF_IS_OPERATION (self));
  self->compared = comparison != NULL;
  self->tested = tested;
  if (comparison != NULL)
    self->comparison = *comparison;
}

const TprofComparison *
_tprof_operation_get_comparison (TprofOperation *self,
                                 gboolean       *tested)
{
  g_return_val_if_fail (TPROF_IS_OPERATION (self), NULL);
  if (tested != NULL)
    *tested = self->tested;
  return self->compared ? &self->comparison : NULL;
}

void
_tprof_operation_set_tree (TprofOperation *self,
                           gboolean        in_tree,
                           gssize          parent,
                           double          self_time)
{
  g_return_if_fail (TPROF_IS_OPERATION (self));
  self->in_tree = in_tree;
  self->parent = in_tree ? parent : -1;
  self->self_time = in_tree ? self_time : NAN;
}

gboolean
_tprof_operation_in_tree (TprofOperation *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION (self), FALSE);
  return self->in_tree;
}

gssize
_tprof_operation_get_parent (TprofOperation *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION (self), -1);
  return self->parent;
}

double
_tprof_operation_get_self (TprofOperation *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION (self), NAN);
  return self->self_time;
}

void
_tprof_operation_set_sampled (TprofOperation *self,
                              gboolean        sampled,
                              guint64         stored)
{
  g_return_if_fail (TPROF_IS_OPERATION (self));
  self->sampled = sampled;
  self->stored = stored;
}

guint64
_tprof_operation_get_stored (TprofOperation *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION (self), 0);
  return self->stored;
}

gboolean
_tprof_operation_is_sampled (TprofOperation *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION (self), FALSE);
  return self->sampled;
}
