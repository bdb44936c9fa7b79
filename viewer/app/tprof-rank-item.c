/* tprof-rank-item.c — TprofRankItem: a rank of the filter list, labelled with its number and host. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-rank-item.h"

struct _TprofRankItem
{
  TprofCheckItem parent_instance;
  gint32         rank;  /* the one rank of its check */
};

G_DEFINE_FINAL_TYPE (TprofRankItem, tprof_rank_item, TPROF_TYPE_CHECK_ITEM)

static void
tprof_rank_item_class_init (TprofRankItemClass *klass)
{
}

static void
tprof_rank_item_init (TprofRankItem *self)
{
}

TprofRankItem *
_tprof_rank_item_new (GByteArray *mask,
                      int         rank,
                      const char *hostname)
{
  TprofRankItem *self = g_object_new (TPROF_TYPE_RANK_ITEM, NULL);
  char *label;

  self->rank = rank;
  if (hostname != NULL && hostname[0] != '\0')
    /* Translators: a rank in the rank filter list, then the host it ran on */
    label = g_strdup_printf (_("Rank %d · %s"), rank, hostname);
  else
    label = g_strdup_printf (_("Rank %d"), rank);
  _tprof_check_item_setup (TPROF_CHECK_ITEM (self), mask, &self->rank, 1, label);
  return self;
}

int
_tprof_rank_item_get_rank (TprofRankItem *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_ITEM (self), -1);
  return self->rank;
}
