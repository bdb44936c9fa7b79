/* tprof-rank-filter.c — TprofRankFilter: check list, All/None/Invert and a rank expression, kept in one mask. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tprof-plot.h"
#include "tprof-keynav.h"
#include "tprof-rank-filter.h"
#include "tprof-rank-item.h"

struct _TprofRankFilter
{
  GtkWidget    parent_instance;

  GListStore  *ranks;
  char       **hostnames;   /* one per rank, or NULL: a host name in the entry selects its ranks */
  GByteArray  *mask;
  guint        n_selected;
  guint        freeze;        /* > 0 while a bulk change is in progress */
  gboolean     pending;       /* a change happened while frozen */

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
  if (self->freeze > 0)
    {
      self->pending = TRUE;
      return;
    }
  tprof_rank_filter_update_summary (self);
  tprof_rank_filter_sync_entry (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
tprof_rank_filter_freeze (TprofRankFilter *self)
{
  self->freeze++;
}

static void
tprof_rank_filter_thaw (TprofRankFilter *self)
{
  g_assert (self->freeze > 0);
  if (--self->freeze == 0 && self->pending)
    {
      self->pending = FALSE;
      tprof_rank_filter_emit_changed (self);
    }
}

static void
tprof_rank_filter_clear_error (TprofRankFilter *self)
{
  gtk_widget_remove_css_class (GTK_WIDGET (self->expr_entry), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
}

static void
item_active_cb (TprofRankItem   *item,
                GParamSpec      *pspec,
                TprofRankFilter *self)
{
  int rank = _tprof_rank_item_get_rank (item);
  gboolean active = _tprof_rank_item_get_active (item);

  if (!!self->mask->data[rank] == active)
    return;
  self->mask->data[rank] = active;
  self->n_selected += active ? 1 : -1;
  tprof_rank_filter_emit_changed (self);
}

void
_tprof_rank_filter_set_profile (TprofRankFilter *self,
                                TprofProfile    *profile)
{
  int world = profile != NULL ? _tprof_profile_get_world_size (profile) : 0;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_if_fail (TPROF_IS_RANK_FILTER (self));

  g_clear_pointer (&self->hostnames, g_strfreev);
  if (world > 0 && _tprof_profile_get_hostname (profile, 0) != NULL)
    {
      self->hostnames = g_new0 (char *, world + 1);
      for (int r = 0; r < world; r++)
        self->hostnames[r] = g_strdup (_tprof_profile_get_hostname (profile, r));
    }
  for (int r = 0; r < world; r++)
    {
      TprofRankItem *item = _tprof_rank_item_new (r, _tprof_profile_get_hostname (profile, r));

      g_signal_connect_object (item, "notify::active", G_CALLBACK (item_active_cb), self, 0);
      g_ptr_array_add (items, item);
    }

  g_byte_array_set_size (self->mask, world);
  memset (self->mask->data, 1, world);
  self->n_selected = world;
  g_list_store_splice (self->ranks, 0, g_list_model_get_n_items (G_LIST_MODEL (self->ranks)),
                       items->pdata, items->len);
  gtk_editable_set_text (GTK_EDITABLE (self->expr_entry), "");
  tprof_rank_filter_clear_error (self);
  tprof_rank_filter_emit_changed (self);
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
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->ranks));

  tprof_rank_filter_freeze (self);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TprofRankItem) item = g_list_model_get_item (G_LIST_MODEL (self->ranks), i);

      _tprof_rank_item_set_active (item, choose (_tprof_rank_item_get_rank (item),
                                                 _tprof_rank_item_get_active (item), data));
    }
  tprof_rank_filter_thaw (self);
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

static gboolean
choose_only (int rank, gboolean active, gpointer data)
{
  return rank == GPOINTER_TO_INT (data);
}

void
_tprof_rank_filter_focus_rank (TprofRankFilter *self,
                               int              rank)
{
  g_autoptr(TprofRankItem) item = NULL;

  g_return_if_fail (TPROF_IS_RANK_FILTER (self));

  if (rank < 0 || (guint) rank >= self->mask->len)
    return;
  item = g_list_model_get_item (G_LIST_MODEL (self->ranks), rank);
  if (_tprof_rank_filter_get_n_selected (self) == 1 && _tprof_rank_item_get_active (item))
    _tprof_rank_filter_select_all (self);
  else
    tprof_rank_filter_set_each (self, choose_only, GINT_TO_POINTER (rank));
}

void
_tprof_rank_filter_toggle_rank (TprofRankFilter *self,
                                int              rank)
{
  g_autoptr(TprofRankItem) item = NULL;

  g_return_if_fail (TPROF_IS_RANK_FILTER (self));

  if (rank < 0 || (guint) rank >= self->mask->len)
    return;
  item = g_list_model_get_item (G_LIST_MODEL (self->ranks), rank);
  _tprof_rank_item_set_active (item, !_tprof_rank_item_get_active (item));
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
  GtkWidget *check = gtk_check_button_new ();

  /* the row takes the focus (Space toggles it): one stop, not one per rank */
  gtk_widget_set_focusable (check, FALSE);
  gtk_list_item_set_child (list_item, check);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  TprofRankItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *check = gtk_list_item_get_child (list_item);
  GBinding *binding;

  gtk_check_button_set_label (GTK_CHECK_BUTTON (check), _tprof_rank_item_get_label (item));
  binding = g_object_bind_property (item, "active", check, "active",
                                    G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_set_data (G_OBJECT (list_item), "tprof-binding", binding);
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  GBinding *binding = g_object_steal_data (G_OBJECT (list_item), "tprof-binding");

  if (binding != NULL)
    g_binding_unbind (binding);
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
  g_clear_object (&self->ranks);

  G_OBJECT_CLASS (tprof_rank_filter_parent_class)->dispose (object);
}

static void
tprof_rank_filter_finalize (GObject *object)
{
  TprofRankFilter *self = (TprofRankFilter *)object;

  g_byte_array_unref (self->mask);
  g_strfreev (self->hostnames);

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
  self->ranks = g_list_store_new (TPROF_TYPE_RANK_ITEM);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), NULL);
  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);

  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->ranks)));
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
