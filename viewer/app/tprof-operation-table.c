/* tprof-operation-table.c — TprofOperationTable: searched and sorted TprofOperation rows, the tree's levels, selection and search (columns, CSV and the two column views in files of their own). */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "tprof-operation-table-private.h"

enum {
  PROP_0,
  PROP_SELECTED_INDEX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TprofOperationTable, tprof_operation_table, GTK_TYPE_WIDGET)

static TprofOperation *
selected_operation (TprofOperationTable *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);

  return row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
}

static void
selection_changed_cb (TprofOperationTable *self)
{
  g_autoptr(TprofOperation) operation = selected_operation (self);
  int index = operation != NULL ? (int) _tprof_operation_get_index (operation) : -1;

  if (self->replacing || index == self->selected_index)
    return;
  self->selected_index = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_INDEX]);
}

/* The position of operation @index among the rows shown, or
 * GTK_INVALID_LIST_POSITION. */
static guint
find_position (TprofOperationTable *self,
               int                  index)
{
  guint n = g_list_model_get_n_items (self->operations);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TprofOperation) operation = g_list_model_get_item (self->operations, i);

      if ((int) _tprof_operation_get_index (operation) == index)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

TprofOperation *
_tprof_operation_table_operation_at (TprofOperationTable *self,
                    int                  index)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->store));

  if (index < 0 || (guint) index >= n)
    return NULL;
  return g_list_model_get_item (G_LIST_MODEL (self->store), (guint) index);
}

/* Expands the rows of operation @index's ancestors, from the top, so that
 * its row shows. */
static void
expand_ancestors (TprofOperationTable *self,
                  int                  index)
{
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(TprofOperation) operation = _tprof_operation_table_operation_at (self, index);
  guint depth = 0;

  for (gssize parent = operation != NULL ? _tprof_operation_get_parent (operation) : -1;
       parent >= 0 && depth++ < g_list_model_get_n_items (G_LIST_MODEL (self->store));)
    {
      g_autoptr(TprofOperation) up = _tprof_operation_table_operation_at (self, (int) parent);
      int p = (int) parent;

      g_array_prepend_val (chain, p);
      parent = up != NULL ? _tprof_operation_get_parent (up) : -1;
    }
  for (guint c = 0; c < chain->len; c++)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tree_model));

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree_model, i);
          g_autoptr(TprofOperation) item = gtk_tree_list_row_get_item (row);

          if ((int) _tprof_operation_get_index (item) == g_array_index (chain, int, c))
            {
              gtk_tree_list_row_set_expanded (row, TRUE);
              break;
            }
        }
    }
}

void
_tprof_operation_table_select_index (TprofOperationTable *self,
                                     int                  index)
{
  guint position = find_position (self, index);

  if (position == GTK_INVALID_LIST_POSITION && index >= 0)
    {
      /* inside a collapsed operation: its parents open */
      expand_ancestors (self, index);
      position = find_position (self, index);
    }
  gtk_single_selection_set_selected (self->selection, position);
}

/* The operations whose rows are collapsed, by index. */
static GHashTable *
collapsed_rows (TprofOperationTable *self)
{
  GHashTable *collapsed = g_hash_table_new (NULL, NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tree_model));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree_model, i);

      if (gtk_tree_list_row_is_expandable (row) && !gtk_tree_list_row_get_expanded (row))
        {
          g_autoptr(TprofOperation) item = gtk_tree_list_row_get_item (row);

          g_hash_table_add (collapsed, GUINT_TO_POINTER (_tprof_operation_get_index (item)));
        }
    }
  return collapsed;
}

static void
collapse_rows (TprofOperationTable *self,
               GHashTable          *collapsed)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->tree_model)); i++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree_model, i);
      g_autoptr(TprofOperation) item = gtk_tree_list_row_get_item (row);

      if (g_hash_table_contains (collapsed, GUINT_TO_POINTER (_tprof_operation_get_index (item))))
        gtk_tree_list_row_set_expanded (row, FALSE);
    }
}

/* The operations inside @operation (NULL: none). */
static GPtrArray *
children_of (TprofOperationTable *self,
             TprofOperation      *operation)
{
  guint index = _tprof_operation_get_index (operation);

  if (self->children == NULL || index >= self->children->len)
    return NULL;
  return g_ptr_array_index (self->children, index);
}

static void
children_free (gpointer children)
{
  if (children != NULL)
    g_ptr_array_unref (children);
}

/* Each operation's children, from their parents, for the tree's levels. */
static void
index_children (TprofOperationTable *self,
                GPtrArray           *operations)
{
  g_clear_pointer (&self->children, g_ptr_array_unref);
  self->children = g_ptr_array_new_full (operations->len, children_free);
  g_ptr_array_set_size (self->children, (int) operations->len);
  self->tree = FALSE;
  for (guint i = 0; i < operations->len; i++)
    {
      TprofOperation *operation = operations->pdata[i];
      gssize parent = _tprof_operation_get_parent (operation);

      self->tree |= _tprof_operation_in_tree (operation);
      /* operations come in index order: the parent's slot is its index */
      if (parent < 0 || (guint) parent >= operations->len || (guint) parent == i)
        continue;
      if (self->children->pdata[parent] == NULL)
        self->children->pdata[parent] = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (self->children->pdata[parent], g_object_ref (operation));
    }
}

/* After the frame that measured the rebuilt rows: back to where the view
 * was. Before that frame the list cannot place the value on a row. */
static void
scroll_after_paint_cb (GdkFrameClock       *clock,
                       TprofOperationTable *self)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));

  g_clear_signal_handler (&self->scroll_handler, self->scroll_clock);
  g_clear_object (&self->scroll_clock);
  if (adjustment == NULL || fabs (gtk_adjustment_get_value (adjustment) - self->scroll_value) < 0.5)
    return;
  gtk_adjustment_set_value (adjustment, self->scroll_value);
  /* the list anchors its scroll on a row: a value set while it still
   * held a stale one must re-anchor it (the Name half follows) */
  g_signal_emit_by_name (adjustment, "value-changed");
}

/* The rows were rebuilt (a list anchors its scroll on a row, and the
 * rebuild moved it): the view goes back to @value once they are measured. */
static void
restore_scroll (TprofOperationTable *self,
                double               value)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self->column_view));

  self->scroll_value = value;
  if (clock == NULL || self->scroll_clock != NULL)
    return;
  self->scroll_clock = g_object_ref (clock);
  self->scroll_handler = g_signal_connect (clock, "after-paint", G_CALLBACK (scroll_after_paint_cb), self);
  gtk_widget_queue_draw (GTK_WIDGET (self->column_view));
}

void
_tprof_operation_table_set_operations (TprofOperationTable *self,
                                       GPtrArray           *operations)
{
  int keep = self->selected_index;
  g_autoptr(GHashTable) collapsed = NULL;
  GtkAdjustment *vadjustment;
  double scrolled;
  gboolean was_tree;

  g_return_if_fail (TPROF_IS_OPERATION_TABLE (self));

  /* one notification at the end, so charts do not redraw for the in-between
   * states; rows collapsed stay so, and the view stays where it was */
  self->replacing = TRUE;
  collapsed = collapsed_rows (self);
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));
  scrolled = vadjustment != NULL ? gtk_adjustment_get_value (vadjustment) : 0.0;
  was_tree = self->tree;
  index_children (self, operations);
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       operations->pdata, operations->len);
  collapse_rows (self, collapsed);
  if (was_tree != self->tree)
    _tprof_operation_table_apply_visible_columns (self);
  /* a flat list leaves the keys to the list */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "table.expand", self->tree);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "table.collapse", self->tree);

  if (keep >= 0)
    _tprof_operation_table_select_index (self, keep);
  else if (operations->len > 0)
    gtk_single_selection_set_selected (self->selection, 0);
  if (vadjustment != NULL && scrolled > 0 && g_list_model_get_n_items (self->operations) > 0)
    restore_scroll (self, scrolled);
  self->replacing = FALSE;
  selection_changed_cb (self);
}

gboolean
_tprof_operation_table_is_tree (TprofOperationTable *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), FALSE);
  return self->tree;
}

gboolean
_tprof_operation_table_set_expanded (TprofOperationTable *self,
                                     int                  index,
                                     gboolean             expanded)
{
  guint position = find_position (self, index);
  g_autoptr(GtkTreeListRow) row = NULL;

  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), FALSE);
  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  row = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  if (!gtk_tree_list_row_is_expandable (row))
    return FALSE;
  gtk_tree_list_row_set_expanded (row, expanded);
  return TRUE;
}

guint
_tprof_operation_table_get_depth (TprofOperationTable *self,
                                  int                  index)
{
  guint position = find_position (self, index);
  g_autoptr(GtkTreeListRow) row = NULL;

  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), 0);
  if (position == GTK_INVALID_LIST_POSITION)
    return 0;
  row = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  return gtk_tree_list_row_get_depth (row);
}

void
_tprof_operation_table_set_comparing (TprofOperationTable *self,
                                      gboolean             comparing)
{
  g_return_if_fail (TPROF_IS_OPERATION_TABLE (self));
  if (self->comparing == comparing)
    return;
  self->comparing = comparing;
  _tprof_operation_table_apply_visible_columns (self);
}

GListModel *
_tprof_operation_table_get_model (TprofOperationTable *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), NULL);
  return self->operations;
}

int
_tprof_operation_table_get_selected_index (TprofOperationTable *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), -1);
  return self->selected_index;
}

/* An operation shows when its name contains the search (any case), or
 * when one of the operations inside it does: a match keeps its parents. */
static gboolean
operation_matches (TprofOperationTable *self,
                   TprofOperation      *operation,
                   guint                depth)
{
  g_autofree char *name = NULL;
  GPtrArray *children;

  if (self->search == NULL)
    return TRUE;
  name = g_utf8_casefold (_tprof_operation_get_name (operation), -1);
  if (strstr (name, self->search) != NULL)
    return TRUE;
  children = children_of (self, operation);
  /* the parents form no cycle (the engine drops those); the depth guards anyway */
  for (guint i = 0; children != NULL && depth < self->children->len && i < children->len; i++)
    if (operation_matches (self, children->pdata[i], depth + 1))
      return TRUE;
  return FALSE;
}

/* The search changed: the rows that stay keep their selection and
 * their collapsed state, which the tree's rebuilt rows would forget. */
static void
refilter (TprofOperationTable *self)
{
  int keep = self->selected_index;
  g_autoptr(GHashTable) collapsed = collapsed_rows (self);
  guint position;

  self->replacing = TRUE;
  gtk_filter_changed (self->search_filter, GTK_FILTER_CHANGE_DIFFERENT);
  collapse_rows (self, collapsed);
  position = keep >= 0 ? find_position (self, keep) : GTK_INVALID_LIST_POSITION;
  if (position != GTK_INVALID_LIST_POSITION)
    gtk_single_selection_set_selected (self->selection, position);
  self->replacing = FALSE;
  selection_changed_cb (self);
}

static gboolean
search_filter_match (gpointer item,
                     gpointer user_data)
{
  return operation_matches (user_data, item, 0);
}

static void
set_search (TprofOperationTable *self,
            const char          *text)
{
  char *search = text != NULL && text[0] != '\0' ? g_utf8_casefold (text, -1) : NULL;

  if (g_strcmp0 (search, self->search) == 0)
    {
      g_free (search);
      return;
    }
  g_free (self->search);
  self->search = search;
  refilter (self);
}

void
_tprof_operation_table_set_search (TprofOperationTable *self,
                                   const char          *text)
{
  g_return_if_fail (TPROF_IS_OPERATION_TABLE (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  /* the entry delays "search-changed"; apply now so callers see the result */
  set_search (self, text);
}

void
_tprof_operation_table_focus_search (TprofOperationTable *self)
{
  g_return_if_fail (TPROF_IS_OPERATION_TABLE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
search_changed_cb (TprofOperationTable *self,
                   GtkSearchEntry      *entry)
{
  set_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

/* The first row whose own name matches the search (the parents kept
 * for their children's sake do not), or 0. */
static guint
first_match (TprofOperationTable *self)
{
  guint n = g_list_model_get_n_items (self->operations);

  for (guint i = 0; self->search != NULL && i < n; i++)
    {
      g_autoptr(TprofOperation) operation = g_list_model_get_item (self->operations, i);
      g_autofree char *name = g_utf8_casefold (_tprof_operation_get_name (operation), -1);

      if (strstr (name, self->search) != NULL)
        return i;
    }
  return 0;
}

/* Enter: the first match is selected and the table takes the keyboard. */
static void
search_activate_cb (TprofOperationTable *self,
                    GtkSearchEntry      *entry)
{
  set_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
  if (g_list_model_get_n_items (G_LIST_MODEL (self->selection)) == 0)
    return;
  gtk_single_selection_set_selected (self->selection, first_match (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->name_view));
}

/* Escape: every operation again. */
static void
search_stop_cb (TprofOperationTable *self,
                GtkSearchEntry      *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  set_search (self, "");
}

static void
tprof_operation_table_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  TprofOperationTable *self = TPROF_OPERATION_TABLE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_INDEX:
      g_value_set_int (value, self->selected_index);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_operation_table_dispose (GObject *object)
{
  TprofOperationTable *self = (TprofOperationTable *)object;
  GtkWidget *child;

  if (self->scroll_clock != NULL)
    g_clear_signal_handler (&self->scroll_handler, self->scroll_clock);
  g_clear_object (&self->scroll_clock);
  gtk_widget_dispose_template (GTK_WIDGET (self), TPROF_TYPE_OPERATION_TABLE);
  /* the template's top box has no id, so unparent it ourselves */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->operations);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree_model);
  g_clear_object (&self->row_sorter);
  g_clear_object (&self->search_filter);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->children, g_ptr_array_unref);
  g_clear_pointer (&self->search, g_free);

  G_OBJECT_CLASS (tprof_operation_table_parent_class)->dispose (object);
}

/* The selected row, or NULL. */
static GtkTreeListRow *
selected_row (TprofOperationTable *self)
{
  gpointer row = gtk_single_selection_get_selected_item (self->selection);

  return row != NULL ? g_object_ref (row) : NULL;
}

/* + or Right: the selected operation shows the operations inside it. */
static void
expand_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  g_autoptr(GtkTreeListRow) row = selected_row (TPROF_OPERATION_TABLE (widget));

  if (row != NULL && gtk_tree_list_row_is_expandable (row))
    gtk_tree_list_row_set_expanded (row, TRUE);
}

/* - or Left: the selected operation hides the operations inside it; on
 * one that hides nothing, its parent is selected, as in a tree view. */
static void
collapse_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  TprofOperationTable *self = TPROF_OPERATION_TABLE (widget);
  g_autoptr(GtkTreeListRow) row = selected_row (self);
  g_autoptr(GtkTreeListRow) parent = NULL;
  g_autoptr(TprofOperation) operation = NULL;

  if (row == NULL)
    return;
  if (gtk_tree_list_row_is_expandable (row) && gtk_tree_list_row_get_expanded (row))
    {
      gtk_tree_list_row_set_expanded (row, FALSE);
      return;
    }
  parent = gtk_tree_list_row_get_parent (row);
  if (parent == NULL)
    return;
  operation = gtk_tree_list_row_get_item (parent);
  _tprof_operation_table_select_index (self, (int) _tprof_operation_get_index (operation));
}

static void
tprof_operation_table_class_init (TprofOperationTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tprof_operation_table_dispose;
  object_class->get_property = tprof_operation_table_get_property;

  properties[PROP_SELECTED_INDEX] =
    g_param_spec_int ("selected-index", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tprof/Viewer/tprof-operation-table.ui");
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, name_window);
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, name_view);
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, stats_window);
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, column_view);
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, stats_scrollbar);
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, columns_box);
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, columns_button);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);

  /* bound on both column views (the search entry keeps its keys) */
  gtk_widget_class_install_action (widget_class, "table.expand", NULL, expand_action);
  gtk_widget_class_install_action (widget_class, "table.collapse", NULL, collapse_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "operationtable");
}

/* The operations inside @item's, as the next level of the tree (NULL: none). */
static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  TprofOperationTable *self = user_data;
  GPtrArray *children = children_of (self, item);
  GListStore *store;

  if (children == NULL || children->len == 0)
    return NULL;
  store = g_list_store_new (TPROF_TYPE_OPERATION);
  g_list_store_splice (store, 0, 0, children->pdata, children->len);
  return G_LIST_MODEL (gtk_filter_list_model_new (G_LIST_MODEL (store), g_object_ref (self->search_filter)));
}

static gboolean
is_top_level (gpointer item,
              gpointer user_data)
{
  return _tprof_operation_get_parent (item) < 0;
}

/* GtkTreeListRow to its TprofOperation, for _tprof_operation_table_get_model(). */
static gpointer
row_operation (gpointer item,
               gpointer user_data)
{
  gpointer operation = gtk_tree_list_row_get_item (item);

  g_object_unref (item);
  return operation;
}

/* GTK 4.8's map model can keep the operation of a row the sort moved
 * (seen as one operation listed twice after a sort): mapped again. */
static void
rows_changed_cb (TprofOperationTable *self)
{
  gtk_map_list_model_set_map_func (GTK_MAP_LIST_MODEL (self->operations), row_operation, NULL, NULL);
}

static void
tprof_operation_table_init (TprofOperationTable *self)
{
  GtkFilterListModel *top_level;
  GtkEveryFilter *top_filter;
  gtk_widget_init_template (GTK_WIDGET (self));

  self->selected_index = -1;
  self->store = g_list_store_new (TPROF_TYPE_OPERATION);

  /* the top level: operations without a parent (all, without a tree),
   * searched; each level below is searched alike (create_children_cb) */
  self->search_filter = GTK_FILTER (gtk_custom_filter_new (search_filter_match, self, NULL));
  top_filter = gtk_every_filter_new ();
  gtk_multi_filter_append (GTK_MULTI_FILTER (top_filter),
                           GTK_FILTER (gtk_custom_filter_new (is_top_level, NULL, NULL)));
  gtk_multi_filter_append (GTK_MULTI_FILTER (top_filter), g_object_ref (self->search_filter));
  top_level = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->store)), GTK_FILTER (top_filter));
  self->tree_model = gtk_tree_list_model_new (G_LIST_MODEL (top_level), FALSE, TRUE, create_children_cb, self, NULL);

  _tprof_operation_table_add_columns (self);
  _tprof_operation_table_set_header_tooltips (self);

  /* the column's order applies among siblings; children stay under their parent */
  self->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->tree_model)),
                                              g_object_ref (_tprof_operation_table_join_views (self)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sort_model));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (selection_changed_cb), self);
  _tprof_operation_table_set_views_model (self, GTK_SELECTION_MODEL (self->selection));
  self->operations = G_LIST_MODEL (gtk_map_list_model_new (g_object_ref (G_LIST_MODEL (self->selection)),
                                                           row_operation, NULL, NULL));
  g_signal_connect_object (self->selection, "items-changed", G_CALLBACK (rows_changed_cb), self, G_CONNECT_SWAPPED);

  _tprof_operation_table_add_column_checks (self);
  self->settings = g_settings_new (APP_ID);
  g_signal_connect_swapped (self->settings, "changed::table-columns", G_CALLBACK (_tprof_operation_table_apply_visible_columns), self);
  _tprof_operation_table_apply_visible_columns (self);
}
