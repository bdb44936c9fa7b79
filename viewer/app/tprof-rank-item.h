/* tprof-rank-item.h — TprofRankItem: one rank in the rank filter list, with its host and whether it is shown. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define TPROF_TYPE_RANK_ITEM (tprof_rank_item_get_type ())
G_DECLARE_FINAL_TYPE (TprofRankItem, tprof_rank_item, TPROF, RANK_ITEM, GObject)

/* @hostname may be NULL. */
TprofRankItem *_tprof_rank_item_new        (int            rank,
                                            const char    *hostname);
int            _tprof_rank_item_get_rank   (TprofRankItem *self);
const char    *_tprof_rank_item_get_label  (TprofRankItem *self);
gboolean       _tprof_rank_item_get_active (TprofRankItem *self);
void           _tprof_rank_item_set_active (TprofRankItem *self,
                                            gboolean       active);

G_END_DECLS
