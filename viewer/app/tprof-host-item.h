/* tprof-host-item.h — TprofHostItem: one host in the rank filter list, checked when all its ranks are shown, mixed when some are. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-check-item.h"

G_BEGIN_DECLS

#define TPROF_TYPE_HOST_ITEM (tprof_host_item_get_type ())
G_DECLARE_FINAL_TYPE (TprofHostItem, tprof_host_item, TPROF, HOST_ITEM, TprofCheckItem)

/* A host called @name, holding the @n_ranks ranks @ranks (ascending; not
 * copied: they must outlive the item), shown where @mask is set. */
TprofHostItem *_tprof_host_item_new            (GByteArray    *mask,
                                                const char    *name,
                                                const gint32  *ranks,
                                                gsize          n_ranks);
/* Its ranks' items, made the first time it is expanded; NULL before. */
GListModel    *_tprof_host_item_get_children   (TprofHostItem *self);
void           _tprof_host_item_set_children   (TprofHostItem *self,
                                                GListModel    *children);

G_END_DECLS
