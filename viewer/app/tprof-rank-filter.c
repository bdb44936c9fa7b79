/* tprof-rank-filter.c — TprofRankFilter: check list, All/None/Invert and a rank expression, kept in one mask. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tprof-plot.h"
#include "tprof-host-item.h"
#include "tprof-keynav.h"
#include "tprof-rank-filter.h"
#include "tprof-rank-item.h"

/* The mask is the truth; the list shows it through items made as they
 * are needed: a host's ranks when it is first expanded, so that 10^5
 * ranks cost 12 500 host items, not 10^5 rows. */
struct _TprofRankFilter
{
  GtkWidget    parent_instance;

  TprofProfile *profile;    /* owns the topology the host items point into */
  GListStore  *roots;       /* TprofHostItem per host, or TprofRankItem per rank without hosts */
  gboolean     by_host;
  char       **hostnames;   /* one per rank, or NULL: a host name in the entry selects its ranks */
  GByteArray  *mask;          /* shared with the items, which read their check from it */
  guint        n_selected;
  GHashTable  *bound;         /* the items shown in a row: times bound; the only ones told of a change */
  /* the masks (GBytes) shown before each focus on a rank or host, the
   * latest last; the user's own change of the filter forgets them */
  GPtrArray   *previous;
  gboolean     focusing;      /* the mask changes by a focus or back: previous stays */
  /* the list's rows are made after the new profile's first frame */
  GdkFrameClock *fill_clock;
  gulong       fill_handler;
  guint        fill_source;

  /* template widgets */
  GtkEntry    *expr_entry;
  GtkLabel    *error_label;
  GtkListView *list_view;
  GtkWidget   *invert_button;
  GtkLabel    *summary_label;
};

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TprofRankFilter, tprof_rank_filter, GTK_TYPE_WIDGET)

static void
tprof_rank_filter_update_summary (TprofRankFilter *self)
{
  g_autofree char *text = NULL;
  guint world = self->mask->len;

  /* Translators: how many ranks the rank filter lets through */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Showing %u of %u rank", "Showing %u of %u ranks", world),
                          self->n_selected, world);
  gtk_label_set_text (self->summary_label, text);
}

/* Shows the selection as an expression, so the entry always tells what is applied. */
static void
tprof_rank_filter_sync_entry (TprofRankFilter *self)
{
  g_autoptr(GArray) selected = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autofree char *expr = NULL;

  /* All shows as the whole range ("0-1023"); None as an empty entry that
   * says so, rather than the example of an expression. */
  gtk_entry_set_placeholder_text (self->expr_entry, self->n_selected == 0 && self->mask->len > 0
                                                      ? _("No rank selected") : _("e.g. 0-3,8,12-15"));
  for (guint r = 0; r < self->mask->len; r++)
    if (self->mask->data[r])
      g_array_append_val (selected, r);
  expr = tprof_rank_expr_format ((const gint32 *) selected->data, selected->len);
  gtk_editable_set_text (GTK_EDITABLE (self->expr_entry), expr);
}

static void
tprof_rank_filter_emit_changed (TprofRankFilter *self)
{
  if (!self->focusing)
    g_ptr_array_set_size (self->previous, 0);
  tprof_rank_filter_update_summary (self);
  tprof_rank_filter_sync_entry (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
tprof_rank_filter_clear_error (TprofRankFilter *self)
{
  gtk_widget_remove_css_class (GTK_WIDGET (self->expr_entry), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
}

/* The rows on screen follow the mask; the other items read it when
 * bound, so that a change costs the rows shown, not the 12 500 hosts. */
static void
tprof_rank_filter_sync_items (TprofRankFilter *self)
{
  GHashTableIter iter;
  gpointer item;

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    _tprof_check_item_notify_state (item);
}

/* Sets @rank's place in the mask; TRUE when that changed it. */
static gboolean
mask_set (TprofRankFilter *self,
          int              rank,
          gboolean         active)
{
  if (!!self->mask->data[rank] == !!active)
    return FALSE;
  self->mask->data[rank] = !!active;
  self->n_selected += active ? 1 : -1;
  return TRUE;
}

/* A host or rank checked or unchecked: all its ranks follow. */
static void
item_toggled_cb (TprofCheckItem  *item,
                 gboolean         active,
                 TprofRankFilter *self)
{
  gboolean changed = FALSE;
  gsize n;
  const gint32 *ranks = _tprof_check_item_get_ranks (item, &n);

  for (gsize i = 0; i < n; i++)
    if ((guint) ranks[i] < self->mask->len)
      changed |= mask_set (self, ranks[i], active);
  tprof_rank_filter_sync_items (self);
  if (changed)
    tprof_rank_filter_emit_changed (self);
}

static gpointer
item_connect (TprofRankFilter *self,
              gpointer         item)
{
  g_signal_connect_object (item, "toggled", G_CALLBACK (item_toggled_cb), self, 0);
  return item;
}

/* A host's ranks, the first time it is expanded (the tree list model's
 * children of a row); NULL for a rank. */
static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  TprofRankFilter *self = user_data;
  TprofHostItem *host;
  g_autoptr(GListStore) store = NULL;
  const gint32 *ranks;
  gsize n;

  if (!TPROF_IS_HOST_ITEM (item))
    return NULL;
  host = TPROF_HOST_ITEM (item);
  if (_tprof_host_item_get_children (host) != NULL)
    return g_object_ref (_tprof_host_item_get_children (host));
  store = g_list_store_new (TPROF_TYPE_RANK_ITEM);
  ranks = _tprof_check_item_get_ranks (TPROF_CHECK_ITEM (host), &n);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(TprofRankItem) rank = item_connect (self, _tprof_rank_item_new (self->mask, ranks[i], NULL));

      g_list_store_append (store, rank);
    }
  _tprof_host_item_set_children (host, G_LIST_MODEL (store));
  return G_LIST_MODEL (g_steal_pointer (&store));
}

/* The list's top rows: one per host when hosts hold several ranks, else
 * one per rank (named with its host). */
static void
fill_roots (TprofRankFilter *self,
            int              world)
{
  const TprofTopology *topo = self->profile != NULL ? _tprof_profile_get_topology (self->profile) : NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  self->by_host = topo != NULL && tprof_topology_has_hosts (topo);
  if (self->by_host)
    for (gsize g = 0; g < tprof_topology_n_groups (topo, TPROF_TOPOLOGY_HOST); g++)
      {
        gsize n;
        const gint32 *ranks = tprof_topology_group_ranks (topo, TPROF_TOPOLOGY_HOST, g, &n);
        const char *name = tprof_topology_group_name (topo, TPROF_TOPOLOGY_HOST, g);

        g_ptr_array_add (items, item_connect (self, _tprof_host_item_new (self->mask, name, ranks, n)));
      }
  else
    for (int r = 0; r < world; r++)
      {
        const char *host = _tprof_profile_get_hostname (self->profile, r);

        g_ptr_array_add (items, item_connect (self, _tprof_rank_item_new (self->mask, r, host)));
      }
  g_list_store_splice (self->roots, 0, g_list_model_get_n_items (G_LIST_MODEL (self->roots)),
                       items->pdata, items->len);
}

static void
tprof_rank_filter_stop_filling (TprofRankFilter *self)
{
  if (self->fill_clock != NULL)
    g_clear_signal_handler (&self->fill_handler, self->fill_clock);
  g_clear_object (&self->fill_clock);
  g_clear_handle_id (&self->fill_source, g_source_remove);
}

static gboolean
fill_idle_cb (gpointer data)
{
  TprofRankFilter *self = data;

  self->fill_source = 0;
  fill_roots (self, (int) self->mask->len);
  return G_SOURCE_REMOVE;
}

static void
fill_after_paint_cb (GdkFrameClock   *clock,
                     TprofRankFilter *self)
{
  tprof_rank_filter_stop_filling (self);
  self->fill_source = g_idle_add (fill_idle_cb, self);
}

/* At 10^5 ranks the list's 12 500 host rows (and the grouping of ranks
 * by host they need) cost more than the rest of the window's first
 * frame: they are made once that frame, the table's, is painted. */
static void
tprof_rank_filter_fill_later (TprofRankFilter *self)
{
  GdkFrameClock *clock = gtk_widget_get_mapped (GTK_WIDGET (self))
                         ? gtk_widget_get_frame_clock (GTK_WIDGET (self)) : NULL;

  tprof_rank_filter_stop_filling (self);
  if (clock == NULL)
    {
      self->fill_source = g_idle_add (fill_idle_cb, self);
      return;
    }
  self->fill_clock = g_object_ref (clock);
  self->fill_handler = g_signal_connect (clock, "after-paint", G_CALLBACK (fill_after_paint_cb), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
_tprof_rank_filter_is_filling (TprofRankFilter *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_FILTER (self), FALSE);
  return self->fill_clock != NULL || self->fill_source != 0;
}

void
_tprof_rank_filter_set_profile (TprofRankFilter *self,
                                TprofProfile    *profile)
{
  int world = profile != NULL ? _tprof_profile_get_world_size (profile) : 0;

  g_return_if_fail (TPROF_IS_RANK_FILTER (self));

  g_clear_pointer (&self->hostnames, g_strfreev);
  if (world > 0 && _tprof_profile_get_hostname (profile, 0) != NULL)
    {
      self->hostnames = g_new0 (char *, world + 1);
      for (int r = 0; r < world; r++)
        self->hostnames[r] = g_strdup (_tprof_profile_get_hostname (profile, r));
    }
  g_ptr_array_set_size (self->previous, 0);
  g_byte_array_set_size (self->mask, world);
  memset (self->mask->data, 1, world);
  self->n_selected = world;
  /* the old items point into the old profile's topology: gone first */
  g_list_store_remove_all (self->roots);
  g_set_object (&self->profile, profile);
  tprof_rank_filter_fill_later (self);
  gtk_editable_set_text (GTK_EDITABLE (self->expr_entry), "");
  tprof_rank_filter_clear_error (self);
  tprof_rank_filter_emit_changed (self);
}

/* Whether @profile names the hosts of the ranks as the list does. */
static gboolean
tprof_rank_filter_same_hosts (TprofRankFilter *self,
                              TprofProfile    *profile)
{
  for (guint r = 0; r < self->mask->len; r++)
    if (g_strcmp0 (self->hostnames != NULL ? self->hostnames[r] : NULL, _tprof_profile_get_hostname (profile, r)) != 0)
      return FALSE;
  return TRUE;
}

void
_tprof_rank_filter_update_hosts (TprofRankFilter *self,
                                 TprofProfile    *profile)
{
  guint world = self->mask->len;

  g_return_if_fail (TPROF_IS_RANK_FILTER (self));
  g_return_if_fail (TPROF_IS_PROFILE (profile));
  if ((guint) _tprof_profile_get_world_size (profile) != world || tprof_rank_filter_same_hosts (self, profile))
    return;
  g_clear_pointer (&self->hostnames, g_strfreev);
  if (world > 0 && _tprof_profile_get_hostname (profile, 0) != NULL)
    {
      self->hostnames = g_new0 (char *, world + 1);
      for (guint r = 0; r < world; r++)
        self->hostnames[r] = g_strdup (_tprof_profile_get_hostname (profile, r));
    }
  /* the old items point into the old profile's topology: gone first */
  g_list_store_remove_all (self->roots);
  g_set_object (&self->profile, profile);
  fill_roots (self, (int) world);
}

GBytes *
_tprof_rank_filter_dup_mask (TprofRankFilter *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_FILTER (self), NULL);

  if (self->n_selected == self->mask->len)
    return NULL;
  return g_bytes_new (self->mask->data, self->mask->len);
}

guint
_tprof_rank_filter_get_n_selected (TprofRankFilter *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_FILTER (self), 0);
  return self->n_selected;
}

const char *
_tprof_rank_filter_get_summary (TprofRankFilter *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_FILTER (self), NULL);
  return gtk_label_get_text (self->summary_label);
}

/* Sets every rank to @choose (rank, current) in one change notification. */
static void
tprof_rank_filter_set_each (TprofRankFilter *self,
                            gboolean       (*choose) (int rank, gboolean active, gpointer data),
                            gpointer         data)
{
  gboolean changed = FALSE;

  for (guint r = 0; r < self->mask->len; r++)
    changed |= mask_set (self, (int) r, choose ((int) r, self->mask->data[r], data));
  tprof_rank_filter_sync_items (self);
  if (changed)
    tprof_rank_filter_emit_changed (self);
}

static gboolean
choose_constant (int rank, gboolean active, gpointer data)
{
  return GPOINTER_TO_INT (data);
}

static gboolean
choose_inverse (int rank, gboolean active, gpointer data)
{
  return !active;
}

static gboolean
choose_listed (int rank, gboolean active, gpointer data)
{
  const guint8 *listed = data;

  return listed[rank];
}

void
_tprof_rank_filter_select_all (TprofRankFilter *self)
{
  tprof_rank_filter_set_each (self, choose_constant, GINT_TO_POINTER (TRUE));
}

void
_tprof_rank_filter_select_ranks (TprofRankFilter *self,
                                 const gint32    *ranks,
                                 gsize            n_ranks)
{
  g_autofree guint8 *listed = NULL;

  g_return_if_fail (TPROF_IS_RANK_FILTER (self));

  listed = g_new0 (guint8, MAX (self->mask->len, 1));
  for (gsize i = 0; i < n_ranks; i++)
    if (ranks[i] >= 0 && (guint) ranks[i] < self->mask->len)
      listed[ranks[i]] = TRUE;
  tprof_rank_filter_set_each (self, choose_listed, listed);
}

void
_tprof_rank_filter_select_none (TprofRankFilter *self)
{
  tprof_rank_filter_set_each (self, choose_constant, GINT_TO_POINTER (FALSE));
}

void
_tprof_rank_filter_invert (TprofRankFilter *self)
{
  tprof_rank_filter_set_each (self, choose_inverse, NULL);
}

/* At most this many filters are remembered to go back to. */
#define MAX_PREVIOUS 16

/* Whether exactly the @n_ranks ranks of @ranks are selected. */
static gboolean
selects_exactly (TprofRankFilter *self,
                 const gint32    *ranks,
                 gsize            n_ranks)
{
  gsize n = 0;

  for (gsize i = 0; i < n_ranks; i++)
    {
      if (ranks[i] < 0 || (guint) ranks[i] >= self->mask->len || !self->mask->data[ranks[i]])
        return FALSE;
      n += i == 0 || ranks[i] != ranks[i - 1];
    }
  return n == self->n_selected;
}

void
_tprof_rank_filter_focus_ranks (TprofRankFilter *self,
                                const gint32    *ranks,
                                gsize            n_ranks)
{
  g_return_if_fail (TPROF_IS_RANK_FILTER (self));

  if (n_ranks == 0)
    return;
  if (selects_exactly (self, ranks, n_ranks))
    {
      _tprof_rank_filter_go_back (self);
      return;
    }
  if (self->previous->len == MAX_PREVIOUS)
    g_ptr_array_remove_index (self->previous, 0);
  g_ptr_array_add (self->previous, g_bytes_new (self->mask->data, self->mask->len));
  self->focusing = TRUE;
  _tprof_rank_filter_select_ranks (self, ranks, n_ranks);
  self->focusing = FALSE;
}

void
_tprof_rank_filter_go_back (TprofRankFilter *self)
{
  g_autoptr(GBytes) previous = NULL;

  g_return_if_fail (TPROF_IS_RANK_FILTER (self));

  if (self->previous->len == 0)
    {
      _tprof_rank_filter_select_all (self);
      return;
    }
  previous = g_ptr_array_steal_index (self->previous, self->previous->len - 1);
  self->focusing = TRUE;
  tprof_rank_filter_set_each (self, choose_listed, (gpointer) g_bytes_get_data (previous, NULL));
  self->focusing = FALSE;
}

char *
_tprof_rank_filter_dup_previous (TprofRankFilter *self)
{
  g_autoptr(GArray) selected = g_array_new (FALSE, FALSE, sizeof (gint32));
  const guint8 *mask;
  gsize size;

  g_return_val_if_fail (TPROF_IS_RANK_FILTER (self), NULL);

  if (self->previous->len == 0)
    return NULL;
  mask = g_bytes_get_data (g_ptr_array_index (self->previous, self->previous->len - 1), &size);
  for (guint r = 0; r < size; r++)
    if (mask[r])
      g_array_append_val (selected, r);
  if (selected->len == size)
    return NULL;
  return tprof_rank_expr_format ((const gint32 *) selected->data, selected->len);
}

void
_tprof_rank_filter_focus_rank (TprofRankFilter *self,
                               int              rank)
{
  gint32 one = rank;

  g_return_if_fail (TPROF_IS_RANK_FILTER (self));

  if (rank < 0 || (guint) rank >= self->mask->len)
    return;
  _tprof_rank_filter_focus_ranks (self, &one, 1);
}

void
_tprof_rank_filter_toggle_rank (TprofRankFilter *self,
                                int              rank)
{
  g_return_if_fail (TPROF_IS_RANK_FILTER (self));

  if (rank < 0 || (guint) rank >= self->mask->len)
    return;
  mask_set (self, rank, !self->mask->data[rank]);
  tprof_rank_filter_sync_items (self);
  tprof_rank_filter_emit_changed (self);
}

gboolean
_tprof_rank_filter_apply_expression (TprofRankFilter  *self,
                                     const char       *expr,
                                     GError          **error)
{
  g_autoptr(GArray) ranks = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree guint8 *listed = NULL;
  g_autofree char *message = NULL;

  g_return_val_if_fail (TPROF_IS_RANK_FILTER (self), FALSE);

  if (!tprof_rank_expr_parse_hosts (expr, (int) self->mask->len, (const char *const *) self->hostnames, &ranks,
                                    &local_error))
    {
      /* Translators: the rank expression entry could not be applied */
      message = g_strdup_printf (_("Not applied: %s"), local_error->message);
      gtk_label_set_text (self->error_label, message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      gtk_widget_add_css_class (GTK_WIDGET (self->expr_entry), "error");
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  tprof_rank_filter_clear_error (self);
  listed = g_new0 (guint8, MAX (self->mask->len, 1));
  for (guint i = 0; i < ranks->len; i++)
    listed[g_array_index (ranks, gint32, i)] = 1;
  tprof_rank_filter_set_each (self, choose_listed, listed);
  return TRUE;
}

static void
expr_activate_cb (TprofRankFilter *self,
                  GtkEntry        *entry)
{
  _tprof_rank_filter_apply_expression (self, gtk_editable_get_text (GTK_EDITABLE (entry)), NULL);
}

static void
expr_changed_cb (TprofRankFilter *self,
                 GtkEntry        *entry)
{
  /* a stale error would describe text that is no longer there */
  tprof_rank_filter_clear_error (self);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *check = gtk_check_button_new ();

  /* the row takes the focus (Space toggles it): one stop, not one per rank */
  gtk_widget_set_focusable (check, FALSE);
  gtk_widget_set_focusable (expander, FALSE);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), check);
  gtk_list_item_set_child (list_item, expander);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  TprofRankFilter *self = user_data;
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GObject *item = gtk_tree_list_row_get_item (row);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *check = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  GBinding *binding, *mixed;

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  gtk_check_button_set_label (GTK_CHECK_BUTTON (check), _tprof_check_item_get_label (TPROF_CHECK_ITEM (item)));
  mixed = g_object_bind_property (item, "inconsistent", check, "inconsistent", G_BINDING_SYNC_CREATE);
  binding = g_object_bind_property (item, "active", check, "active", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  /* held: a binding whose item went first (a new profile) is gone otherwise */
  g_object_set_data_full (G_OBJECT (list_item), "tprof-binding", g_object_ref (binding), g_object_unref);
  g_object_set_data_full (G_OBJECT (list_item), "tprof-mixed", g_object_ref (mixed), g_object_unref);
  /* told of every change while on screen */
  g_hash_table_insert (self->bound, item,
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (self->bound, item)) + 1));
  g_object_set_data_full (G_OBJECT (list_item), "tprof-item", item, g_object_unref);
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  TprofRankFilter *self = user_data;
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  g_autoptr(GObject) item = g_object_steal_data (G_OBJECT (list_item), "tprof-item");
  guint times = item != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (self->bound, item)) : 0;

  if (times > 1)
    g_hash_table_insert (self->bound, item, GUINT_TO_POINTER (times - 1));
  else if (item != NULL)
    g_hash_table_remove (self->bound, item);
  for (guint i = 0; i < 2; i++)
    {
      GBinding *binding = g_object_steal_data (G_OBJECT (list_item), i == 0 ? "tprof-binding" : "tprof-mixed");

      if (binding == NULL)
        continue;
      g_binding_unbind (binding);
      g_object_unref (binding);
    }
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), NULL);
}

static void
select_action_cb (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  TprofRankFilter *self = TPROF_RANK_FILTER (widget);

  if (g_str_equal (action_name, "rank-filter.all"))
    _tprof_rank_filter_select_all (self);
  else if (g_str_equal (action_name, "rank-filter.none"))
    _tprof_rank_filter_select_none (self);
  else
    _tprof_rank_filter_invert (self);
}

static void
tprof_rank_filter_dispose (GObject *object)
{
  TprofRankFilter *self = (TprofRankFilter *)object;
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), TPROF_TYPE_RANK_FILTER);
  /* the template's top box has no id, so unparent it ourselves */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  tprof_rank_filter_stop_filling (self);
  g_clear_object (&self->roots);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (tprof_rank_filter_parent_class)->dispose (object);
}

static void
tprof_rank_filter_finalize (GObject *object)
{
  TprofRankFilter *self = (TprofRankFilter *)object;

  g_byte_array_unref (self->mask);
  g_ptr_array_unref (self->previous);
  g_strfreev (self->hostnames);
  g_hash_table_unref (self->bound);

  G_OBJECT_CLASS (tprof_rank_filter_parent_class)->finalize (object);
}

static void
tprof_rank_filter_class_init (TprofRankFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tprof_rank_filter_dispose;
  object_class->finalize = tprof_rank_filter_finalize;

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tprof/Viewer/tprof-rank-filter.ui");
  gtk_widget_class_bind_template_child (widget_class, TprofRankFilter, expr_entry);
  gtk_widget_class_bind_template_child (widget_class, TprofRankFilter, error_label);
  gtk_widget_class_bind_template_child (widget_class, TprofRankFilter, list_view);
  gtk_widget_class_bind_template_child (widget_class, TprofRankFilter, summary_label);
  gtk_widget_class_bind_template_callback (widget_class, expr_activate_cb);
  gtk_widget_class_bind_template_child (widget_class, TprofRankFilter, invert_button);
  gtk_widget_class_bind_template_callback (widget_class, expr_changed_cb);

  gtk_widget_class_install_action (widget_class, "rank-filter.all", NULL, select_action_cb);
  gtk_widget_class_install_action (widget_class, "rank-filter.none", NULL, select_action_cb);
  gtk_widget_class_install_action (widget_class, "rank-filter.invert", NULL, select_action_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "rankfilter");
}

static void
tprof_rank_filter_init (TprofRankFilter *self)
{
  GtkListItemFactory *factory;
  GtkNoSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->mask = g_byte_array_new ();
  self->bound = g_hash_table_new (NULL, NULL);
  self->previous = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  self->roots = g_list_store_new (G_TYPE_OBJECT);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), self);
  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);

  selection = gtk_no_selection_new (G_LIST_MODEL (gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->roots)),
                                                                           FALSE, FALSE, create_children_cb, self,
                                                                           NULL)));
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);

  tprof_rank_filter_update_summary (self);
}

void
_tprof_rank_filter_focus_entry (TprofRankFilter *self)
{
  g_return_if_fail (TPROF_IS_RANK_FILTER (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->expr_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->expr_entry), 0, -1);
}

void
_tprof_rank_filter_set_next_focus (TprofRankFilter *self,
                                   GtkWidget       *next)
{
  g_return_if_fail (TPROF_IS_RANK_FILTER (self));
  _tprof_keynav_one_tab_stop (GTK_WIDGET (self->list_view), self->invert_button, next);
}

GtkWidget *
_tprof_rank_filter_get_list (TprofRankFilter *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_FILTER (self), NULL);
  return GTK_WIDGET (self->list_view);
}
