/* tprof-rank-item.h — TprofRankItem: one rank in the rank filter list, with its host and whether it is shown. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-check-item.h"

G_BEGIN_DECLS

#define TPROF_TYPE_RANK_ITEM (tprof_rank_item_get_type ())
G_DECLARE_FINAL_TYPE (TprofRankItem, tprof_rank_item, TPROF, RANK_ITEM, TprofCheckItem)

/* Rank @rank, shown where @mask is set; @hostname may be NULL. */
TprofRankItem *_tprof_rank_item_new        (GByteArray    *mask,
                                            int            rank,
                                            const char    *hostname);
int            _tprof_rank_item_get_rank   (TprofRankItem *self);

G_END_DECLS
