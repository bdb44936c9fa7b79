/* tprof-operation-table-views.c — TprofOperationTable's two halves as one table: Name pinned, the statistics scrolling sideways, one selection, scroll, sort, keys. */
/* SPDX-License-Identifier: MIT */

/* GTK 4.8's column view has no column that stays put while the others
 * scroll sideways, so the table is two column views side by side: Name
 * (with the tree's expanders) in a window that never scrolls sideways,
 * the statistics in one that does. They show the same rows of the same
 * selection model, scroll together (their rows are equally tall:
 * style.css), sort by whichever header was clicked last, and take the
 * same keys. */

#include "config.h"

#include "tprof-keynav.h"
#include "tprof-operation-table-private.h"

/* The tree's keys, caught before the list's own use of the arrows. */
static const struct
{
  const char *trigger;
  const char *action;
} tree_keys[] = {
  { "plus", "table.expand" },      { "KP_Add", "table.expand" },
  { "Right", "table.expand" },     { "KP_Right", "table.expand" },
  { "minus", "table.collapse" },   { "KP_Subtract", "table.collapse" },
  { "Left", "table.collapse" },    { "KP_Left", "table.collapse" },
};

static void
add_tree_keys (GtkWidget *view)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (tree_keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (tree_keys[i].trigger),
                                                            gtk_named_action_new (tree_keys[i].action)));
  gtk_widget_add_controller (view, controller);
}

/* A header was clicked in one half: the rows sort by it, and the other
 * half's header loses its arrow. */
static void
view_sorter_changed_cb (GtkSorter           *sorter,
                        GtkSorterChange      change,
                        TprofOperationTable *self)
{
  GtkColumnView *other;

  /* (a table being disposed has lost its views) */
  if (self->syncing_sort || self->name_view == NULL || self->column_view == NULL)
    return;
  other = sorter == gtk_column_view_get_sorter (self->name_view) ? self->column_view : self->name_view;
  self->syncing_sort = TRUE;
  gtk_tree_list_row_sorter_set_sorter (self->row_sorter, sorter);
  gtk_column_view_sort_by_column (other, NULL, GTK_SORT_ASCENDING);
  self->syncing_sort = FALSE;
}

/* Each half keeps its own vertical adjustment, which its list configures
 * from its own rows (one adjustment shared reached a half whose new rows
 * were not measured yet with a place beyond them, which the list
 * refused). The half scrolled last leads; the other follows once both
 * are laid out, in the same frame (the frame clock repeats its layout
 * phase while layout is asked for). */
static void
layout_cb (GdkFrameClock       *clock,
           TprofOperationTable *self)
{
  GtkAdjustment *names = gtk_scrolled_window_get_vadjustment (self->name_window);
  GtkAdjustment *stats = gtk_scrolled_window_get_vadjustment (self->stats_window);
  GtkAdjustment *from = self->scroll_leader;

  if (from == NULL)
    return;
  self->scroll_leader = NULL;
  self->syncing_scroll = TRUE;
  gtk_adjustment_set_value (from == names ? stats : names, gtk_adjustment_get_value (from));
  /* a list anchors its scroll on a row: one that held a stale anchor at
   * the same value must anchor again */
  g_signal_emit_by_name (from == names ? stats : names, "value-changed");
  self->syncing_scroll = FALSE;
}

/* @adjustment's half leads at the end of the next layout. */
static void
lead (TprofOperationTable *self,
      GtkAdjustment       *adjustment)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  self->scroll_leader = adjustment;
  if (clock == NULL)
    return;
  if (clock != self->layout_clock)
    {
      if (self->layout_clock != NULL)
        g_signal_handlers_disconnect_by_func (self->layout_clock, layout_cb, self);
      self->layout_clock = clock;
      g_signal_connect_object (clock, "layout", G_CALLBACK (layout_cb), self, G_CONNECT_AFTER);
    }
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
}

/* Either half scrolled (a wheel, a key, the scrollbar, its list): the
 * other follows. */
static void
vvalue_changed_cb (GtkAdjustment       *adjustment,
                   TprofOperationTable *self)
{
  if (!self->syncing_scroll)
    lead (self, adjustment);
}

/* A half measured its rows again: unless one half was just scrolled, it
 * goes to where the statistics half is, which holds the scrollbar. */
static void
vadjustment_changed_cb (GtkAdjustment       *adjustment,
                        TprofOperationTable *self)
{
  if (!self->syncing_scroll && self->scroll_leader == NULL)
    lead (self, gtk_scrolled_window_get_vadjustment (self->stats_window));
}

/* The sideways scrollbar shows only when the statistics do not fit. */
static void
hadjustment_changed_cb (GtkAdjustment       *adjustment,
                        TprofOperationTable *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->stats_scrollbar),
                          gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_lower (adjustment)
                          > gtk_adjustment_get_page_size (adjustment) + 0.5);
}

GtkSorter *
_tprof_operation_table_join_views (TprofOperationTable *self)
{
  GtkAdjustment *hadjustment = gtk_scrolled_window_get_hadjustment (self->stats_window);
  GtkColumnView *views[] = { self->name_view, self->column_view };

  GtkAdjustment *vadjustments[] = { gtk_scrolled_window_get_vadjustment (self->name_window),
                                    gtk_scrolled_window_get_vadjustment (self->stats_window) };

  for (guint a = 0; a < G_N_ELEMENTS (vadjustments); a++)
    {
      g_signal_connect_object (vadjustments[a], "value-changed", G_CALLBACK (vvalue_changed_cb), self, 0);
      g_signal_connect_object (vadjustments[a], "changed", G_CALLBACK (vadjustment_changed_cb), self, 0);
    }
  gtk_scrollbar_set_adjustment (self->stats_scrollbar, hadjustment);
  g_signal_connect_object (hadjustment, "changed", G_CALLBACK (hadjustment_changed_cb), self, 0);
  hadjustment_changed_cb (hadjustment, self);

  self->row_sorter = gtk_tree_list_row_sorter_new (NULL);
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      add_tree_keys (GTK_WIDGET (views[v]));
      g_signal_connect_object (gtk_column_view_get_sorter (views[v]), "changed",
                               G_CALLBACK (view_sorter_changed_cb), self, 0);
    }
  return GTK_SORTER (self->row_sorter);
}

void
_tprof_operation_table_set_views_model (TprofOperationTable *self,
                                        GtkSelectionModel   *model)
{
  gtk_column_view_set_model (self->name_view, model);
  gtk_column_view_set_model (self->column_view, model);
}

void
_tprof_operation_table_set_next_focus (TprofOperationTable *self,
                                       GtkWidget           *next)
{
  g_return_if_fail (TPROF_IS_OPERATION_TABLE (self));
  /* either half is the table's one tab stop (a click may focus either) */
  _tprof_keynav_one_tab_stop (GTK_WIDGET (self->name_view), self->columns_button, next);
  _tprof_keynav_one_tab_stop (GTK_WIDGET (self->column_view), self->columns_button, next);
}

GtkWidget *
_tprof_operation_table_get_view (TprofOperationTable *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), NULL);
  return GTK_WIDGET (self->name_view);
}

GtkWidget *
_tprof_operation_table_get_stats_view (TprofOperationTable *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), NULL);
  return GTK_WIDGET (self->column_view);
}
