/* tprof-check-item.h — TprofCheckItem: a row of the rank filter list whose check is derived from the filter's mask. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TPROF_TYPE_CHECK_ITEM (tprof_check_item_get_type ())
G_DECLARE_DERIVABLE_TYPE (TprofCheckItem, tprof_check_item, TPROF, CHECK_ITEM, GObject)

struct _TprofCheckItemClass
{
  GObjectClass parent_class;
};

/* The item stores no state of its own: "active" (all its ranks shown)
 * and "inconsistent" (some) are read from @mask, one byte per rank, when
 * asked. So a change of the filter costs nothing for the items nobody
 * shows; the list notifies the rows on screen with
 * _tprof_check_item_notify_state(). Setting "active" (a click) emits
 * "toggled" for the list to change the mask. */
void          _tprof_check_item_setup        (TprofCheckItem *self,
                                              GByteArray     *mask,
                                              const gint32   *ranks,
                                              gsize           n_ranks,
                                              char           *label);
const gint32 *_tprof_check_item_get_ranks    (TprofCheckItem *self,
                                              gsize          *n_ranks);
const char   *_tprof_check_item_get_label    (TprofCheckItem *self);
gboolean      _tprof_check_item_get_active   (TprofCheckItem *self);
gboolean      _tprof_check_item_get_inconsistent (TprofCheckItem *self);
/* Tells the bindings that the mask may have changed the state. */
void          _tprof_check_item_notify_state (TprofCheckItem *self);

G_END_DECLS
