/* tprof-operation-table-columns.c — TprofOperationTable's columns: what each shows and means, its cells, its sort order, and the chooser. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "tprof-operation-table-private.h"

/* The columns that answer "which operation, which rank" come first, so
 * that they show in a window of 1000 px; the distribution follows. The
 * default order is by the time lost to imbalance: an operation where the
 * ranks wait long for the slowest, weighted by time (a 46 ms operation
 * with a large ratio does not come before a 5 s one). */
const ColumnSpec _tprof_operation_table_column_specs[] = {
  { "name", N_("Name"), "name", COLUMN_NAME, 0, N_("The operation, as the program named it") },
  /* comparing: right after the name, what changed */
  { "verdict", N_("Verdict"), NULL, COLUMN_VERDICT, 0,
    /* xgettext:no-c-format */
    N_("Slower or faster than the baseline: the verdict's test, Holm-adjusted over the operations, p below "
       "0.05, and a change of the median of more than 2 %. With one baseline the test compares the runs' "
       "blocks of occurrences, taking whole runs to differ by up to twice the spread between blocks or ranks "
       "of a run, so only large changes count; with several, each run's median is one observation") },
  { "change", N_("Change"), NULL, COLUMN_CHANGE, 0,
    /* xgettext:no-c-format */
    N_("How the median changed against the baseline, with its 95 % interval") },
  { "base-median", N_("Baseline Median"), NULL, COLUMN_BASE_MEDIAN, 0, N_("The baseline's median duration") },
  { "imbalance-time", N_("Time lost"), "imbalance-time", COLUMN_DURATION, offsetof (TprofSummary, imbalance_time),
    N_("The slowest rank's total minus the mean rank total: how long the other ranks wait for it, on average") },
  { "sum", N_("Sum"), "sum", COLUMN_DURATION, offsetof (TprofSummary, sum),
    N_("The total time of every sample on every rank shown") },
  { "self", N_("Self"), "self", COLUMN_SELF, 0,
    N_("The time spent in the operation itself, outside the operations inside it, on every rank shown") },
  { "imbalance", N_("Imbalance"), "imbalance", COLUMN_RATIO, offsetof (TprofSummary, imbalance),
    N_("The slowest rank's total divided by the mean rank total; 1.00× is perfectly balanced") },
  { "slowest-rank", N_("Slowest"), "slowest-rank", COLUMN_RANK, offsetof (TprofSummary, slowest_rank),
    /* xgettext:no-c-format */
    N_("The rank whose total time exceeds the other ranks' by more than noise (5 % and a robust z-score over 3.5); — when none does") },
  { "mean", N_("Mean"), "mean", COLUMN_DURATION, offsetof (TprofSummary, mean), N_("The mean duration") },
  { "median", N_("Median"), "median", COLUMN_DURATION, offsetof (TprofSummary, median),
    N_("Half the samples took less, half took more") },
  { "p95", N_("P95"), "p95", COLUMN_DURATION, offsetof (TprofSummary, p95),
    /* xgettext:no-c-format */
    N_("95 % of the samples took less: the slow tail") },
  { "p99", N_("P99"), "p99", COLUMN_DURATION, offsetof (TprofSummary, p99),
    /* xgettext:no-c-format */
    N_("99 % of the samples took less: the slowest one in a hundred") },
  { "max", N_("Max"), "max", COLUMN_DURATION, offsetof (TprofSummary, max), N_("The longest sample") },
  { "min", N_("Min"), "min", COLUMN_DURATION, offsetof (TprofSummary, min), N_("The shortest sample") },
  { "std", N_("Std"), "std", COLUMN_DURATION, offsetof (TprofSummary, std),
    N_("The standard deviation of the durations (N−1)") },
  /* how many, last: the quantiles up to Max fit a 1200 px window first */
  { "count", N_("Count"), "count", COLUMN_COUNT, offsetof (TprofSummary, count), N_("The number of samples") },
  { "ranks", N_("Ranks"), "rank-count", COLUMN_COUNT, offsetof (TprofSummary, rank_count),
    N_("The number of ranks with samples") },
};

#define column_specs _tprof_operation_table_column_specs
G_STATIC_ASSERT (G_N_ELEMENTS (_tprof_operation_table_column_specs) == N_COLUMN_SPECS);

gboolean
_tprof_column_is_comparison (const ColumnSpec *spec)
{
  return spec->kind == COLUMN_BASE_MEDIAN || spec->kind == COLUMN_CHANGE || spec->kind == COLUMN_VERDICT;
}

/* Columns the chooser does not offer: the name, and those shown only in a
 * mode (comparing, the tree). */
gboolean
_tprof_column_is_fixed (const ColumnSpec *spec)
{
  return spec->kind == COLUMN_NAME || spec->kind == COLUMN_SELF || _tprof_column_is_comparison (spec);
}

static const ColumnSpec *
column_spec_find (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    if (g_str_equal (column_specs[i].id, id))
      return &column_specs[i];
  return NULL;
}

/* "+12.3 %" for a ratio of 1.123. */
static char *
format_change (double ratio)
{
  if (!isfinite (ratio))
    return g_strdup ("—");
  /* Translators: a relative change, e.g. +12.3 % or -4.0 % */
  return g_strdup_printf (_("%+.1f %%"), 100.0 * (ratio - 1.0));
}

/* The comparison's cells: the text says it all, the colour (set in
 * bind_cell_cb) only repeats it. */
static char *
format_comparison (ColumnKind      kind,
                   TprofOperation *operation)
{
  gboolean tested = FALSE;
  const TprofComparison *c = _tprof_operation_get_comparison (operation, &tested);
  g_autofree char *change = NULL, *low = NULL, *high = NULL;

  if (c == NULL)
    return g_strdup ("");
  if (kind == COLUMN_BASE_MEDIAN)
    return isnan (c->base_median) ? g_strdup ("—") : tprof_format_duration (c->base_median, 3);
  if (kind == COLUMN_CHANGE)
    {
      change = format_change (c->ratio);
      if (!tested || !isfinite (c->ci_low) || !isfinite (c->ci_high))
        return g_steal_pointer (&change);
      low = format_change (c->ci_low);
      high = format_change (c->ci_high);
      /* Translators: a change and its 95% interval, e.g. +12.3 % (+10.1 % … +14.6 %) */
      return g_strdup_printf (_("%s (%s … %s)"), change, low, high);
    }
  /* no samples on the ranks shown in either run: nothing to say */
  if (tested && c->base_count == 0 && c->new_count == 0)
    return g_strdup ("—");
  if (!tested && c->verdict != TPROF_VERDICT_ONLY_NEW && c->verdict != TPROF_VERDICT_ONLY_BASE)
    /* Translators: the comparison waits for the samples of both runs */
    return g_strdup (_("Not tested"));
  switch (c->verdict)
    {
    case TPROF_VERDICT_SLOWER:
      /* Translators: a verdict of the comparison with the baseline */
      return g_strdup (_("▲ Slower"));
    case TPROF_VERDICT_FASTER:
      return g_strdup (_("▼ Faster"));
    case TPROF_VERDICT_SAME:
      return g_strdup (_("Same"));
    case TPROF_VERDICT_ONLY_NEW:
      return g_strdup (_("Not in baseline"));
    case TPROF_VERDICT_ONLY_BASE:
      return g_strdup (_("Only in baseline"));
    default:
      return g_strdup ("");
    }
}

/* The figures a sampled operation's stored subset only estimates
 * (docs/file-format.md); the others cover everything recorded. */
static gboolean
column_is_estimate (const ColumnSpec *spec)
{
  return spec->kind == COLUMN_DURATION
         && (spec->offset == offsetof (TprofSummary, std) || spec->offset == offsetof (TprofSummary, median)
             || spec->offset == offsetof (TprofSummary, p95) || spec->offset == offsetof (TprofSummary, p99));
}

static char *
column_spec_format (const ColumnSpec *spec,
                    TprofOperation   *operation)
{
  const guint8 *summary = (const guint8 *) _tprof_operation_get_summary (operation);
  double value;
  int32_t rank;

  switch (spec->kind)
    {
    case COLUMN_NAME:
      /* a newline would show only the first line */
      return tprof_escape_text (_tprof_operation_get_name (operation));
    case COLUMN_COUNT:
      /* grouped as the locale groups thousands: 10,240,000 */
      return g_strdup_printf ("%'zu", *(const size_t *) (summary + spec->offset));
    case COLUMN_DURATION:
      {
        g_autofree char *text = tprof_format_duration (*(const double *) (summary + spec->offset), 3);

        if (column_is_estimate (spec) && _tprof_operation_is_sampled (operation))
          /* Translators: an estimate, e.g. ≈ 1.25 ms: from a random subset of the samples */
          return g_strdup_printf (_("≈ %s"), text);
        return g_steal_pointer (&text);
      }
    case COLUMN_RATIO:
      value = *(const double *) (summary + spec->offset);
      if (isnan (value))
        return g_strdup ("—");
      /* Translators: a load imbalance factor, e.g. 1.25× */
      return g_strdup_printf (_("%.2f×"), value);
    case COLUMN_RANK:
      /* a rank within noise of the others is no slowest rank */
      rank = *(const int32_t *) (summary + spec->offset);
      return rank < 0 || !_tprof_operation_get_summary (operation)->slowest_stands_out
             ? g_strdup ("—") : g_strdup_printf ("%d", rank);
    case COLUMN_BASE_MEDIAN:
    case COLUMN_CHANGE:
    case COLUMN_VERDICT:
      return format_comparison (spec->kind, operation);
    case COLUMN_SELF:
      return tprof_format_duration (_tprof_operation_get_self (operation), 3);
    default:
      g_return_val_if_reached (NULL);
    }
}

char *
_tprof_operation_table_format_cell (const char     *id,
                                    TprofOperation *operation)
{
  const ColumnSpec *spec = column_spec_find (id);

  g_return_val_if_fail (spec != NULL, NULL);
  return column_spec_format (spec, operation);
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               const ColumnSpec         *spec)
{
  GtkWidget *cell = gtk_inscription_new (NULL);
  GtkWidget *expander;

  /* GtkInscription does not measure its text: give each column room for its values */
  if (spec->kind != COLUMN_NAME)
    {
      gtk_inscription_set_xalign (GTK_INSCRIPTION (cell), 1.0f);
      gtk_inscription_set_min_chars (GTK_INSCRIPTION (cell), spec->kind == COLUMN_COUNT ? 6 : 8);
      gtk_inscription_set_nat_chars (GTK_INSCRIPTION (cell), spec->kind == COLUMN_COUNT ? 8
                                                             : spec->kind == COLUMN_CHANGE ? 26
                                                             : spec->kind == COLUMN_VERDICT ? 14 : 9);
      gtk_widget_add_css_class (cell, "numeric");
    }
  else
    {
      gtk_inscription_set_min_chars (GTK_INSCRIPTION (cell), 12);
      gtk_inscription_set_nat_chars (GTK_INSCRIPTION (cell), 28);
      gtk_inscription_set_text_overflow (GTK_INSCRIPTION (cell), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
      gtk_widget_set_hexpand (cell, TRUE);
      /* the name sits in the tree's expander: indented by depth, a triangle
       * where an operation has operations inside */
      expander = gtk_tree_expander_new ();
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), cell);
      gtk_list_item_set_child (list_item, expander);
      return;
    }
  gtk_list_item_set_child (list_item, cell);
}

/* The operation a list item shows (a row of the tree). */
static TprofOperation *
list_item_operation (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  return row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              const ColumnSpec         *spec)
{
  g_autoptr(TprofOperation) operation = list_item_operation (list_item);
  g_autofree char *text = column_spec_format (spec, operation);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  GtkInscription *cell;

  if (GTK_IS_TREE_EXPANDER (child))
    {
      GtkTreeListRow *row = gtk_list_item_get_item (list_item);

      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), row);
      /* leaves line up with their expandable siblings */
      g_object_set (child, "indent-for-icon", gtk_tree_list_row_get_depth (row) > 0, NULL);
      cell = GTK_INSCRIPTION (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child)));
    }
  else
    cell = GTK_INSCRIPTION (child);

  gtk_inscription_set_text (cell, text);
  if (spec->kind == COLUMN_VERDICT || spec->kind == COLUMN_CHANGE)
    {
      gboolean tested = FALSE;
      const TprofComparison *c = _tprof_operation_get_comparison (operation, &tested);

      gtk_widget_remove_css_class (GTK_WIDGET (cell), "slower");
      gtk_widget_remove_css_class (GTK_WIDGET (cell), "faster");
      if (c != NULL && tested && c->verdict == TPROF_VERDICT_SLOWER)
        gtk_widget_add_css_class (GTK_WIDGET (cell), "slower");
      else if (c != NULL && tested && c->verdict == TPROF_VERDICT_FASTER)
        gtk_widget_add_css_class (GTK_WIDGET (cell), "faster");
    }
  if (spec->kind == COLUMN_NAME && _tprof_operation_is_sampled (operation))
    {
      /* Translators: the tooltip of a sampled operation's name; %s is the name */
      g_autofree char *tip = g_strdup_printf (_("%s\nSampled: the file keeps a random subset of the samples. "
                                                "Count, sum, mean, min and max are exact; std, median, "
                                                "P95 and P99 (marked ≈) are estimates."), text);

      gtk_widget_set_tooltip_text (GTK_WIDGET (cell), tip);
    }
  else if (spec->kind == COLUMN_NAME)
    gtk_widget_set_tooltip_text (GTK_WIDGET (cell), text);
  if (spec->kind != COLUMN_NAME)
    /* a number is never clipped: the column widens to its longest cell
     * (10 240 000 samples once showed as ".0240000") */
    gtk_inscription_set_min_chars (cell, MAX (spec->kind == COLUMN_COUNT ? 6u : 8u,
                                              (guint) g_utf8_strlen (text, -1) + 1));
}

/* The raw number a column sorts on; an empty operation's NaN sorts as the
 * smallest value so it ends up last in the usual largest-first order. */
static double
column_sort_key (TprofOperation   *operation,
                 const ColumnSpec *spec)
{
  const guint8 *summary = (const guint8 *) _tprof_operation_get_summary (operation);
  double value;

  switch (spec->kind)
    {
    case COLUMN_COUNT:
      return (double) *(const size_t *) (summary + spec->offset);
    case COLUMN_RANK:
      return _tprof_operation_get_summary (operation)->slowest_stands_out
             ? *(const int32_t *) (summary + spec->offset) : -1;
    case COLUMN_DURATION:
    case COLUMN_RATIO:
      value = *(const double *) (summary + spec->offset);
      return isnan (value) ? -G_MAXDOUBLE : value;
    case COLUMN_BASE_MEDIAN:
    case COLUMN_CHANGE:
    case COLUMN_VERDICT:
      {
        const TprofComparison *c = _tprof_operation_get_comparison (operation, NULL);

        value = c == NULL ? NAN : spec->kind == COLUMN_BASE_MEDIAN ? c->base_median : c->ratio;
        return isfinite (value) ? value : -G_MAXDOUBLE;
      }
    case COLUMN_SELF:
      value = _tprof_operation_get_self (operation);
      return isnan (value) ? -G_MAXDOUBLE : value;
    case COLUMN_NAME:
    default:
      g_return_val_if_reached (0.0);
    }
}

/* A numeric column's first click puts the largest values first: its
 * sorter is reversed, so that the column view's "ascending" (its first
 * click) reads largest first; _tprof_operation_table_sort_by() speaks of
 * values, not clicks. */
static GtkSorter *
column_spec_sorter (const ColumnSpec *spec)
{
  GtkNumericSorter *sorter;

  if (spec->kind == COLUMN_NAME)
    return GTK_SORTER (gtk_string_sorter_new (gtk_property_expression_new (TPROF_TYPE_OPERATION, NULL, "name")));

  sorter = gtk_numeric_sorter_new (gtk_cclosure_expression_new (G_TYPE_DOUBLE, NULL, 0, NULL,
                                                                G_CALLBACK (column_sort_key),
                                                                (gpointer) spec, NULL));
  gtk_numeric_sorter_set_sort_order (sorter, GTK_SORT_DESCENDING);
  return GTK_SORTER (sorter);
}

void
_tprof_operation_table_add_columns (TprofOperationTable *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    {
      const ColumnSpec *spec = &column_specs[i];
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;
      GtkSorter *sorter = column_spec_sorter (spec);

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), (gpointer) spec);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), (gpointer) spec);

      column = gtk_column_view_column_new (_(spec->title), factory);
      gtk_column_view_column_set_sorter (column, sorter);
      gtk_column_view_column_set_resizable (column, TRUE);
      if (spec->kind == COLUMN_NAME)
        {
          gtk_column_view_column_set_expand (column, TRUE);
        }
      /* Name in the half that stays put, the rest in the one scrolling sideways */
      gtk_column_view_append_column (spec->kind == COLUMN_NAME ? self->name_view : self->column_view, column);
      self->columns[i] = column;
      g_object_unref (sorter);
      g_object_unref (column);
    }
}

/* GTK 4.8 has no API for a column header's tooltip: the header's title
 * widgets are found among the column view's children (the column's title
 * in a label inside each). The title widget of @spec, or NULL. */
static GtkWidget *
header_title_for (TprofOperationTable *self,
                  const ColumnSpec    *spec)
{
  GtkColumnView *view = spec->kind == COLUMN_NAME ? self->name_view : self->column_view;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    for (GtkWidget *title = gtk_widget_get_first_child (child); title != NULL;
         title = gtk_widget_get_next_sibling (title))
      {
        GtkWidget *label = gtk_widget_get_first_child (title);

        while (label != NULL && !GTK_IS_LABEL (label))
          label = gtk_widget_get_first_child (label);
        if (label != NULL && g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), _(spec->title)) == 0)
          return title;
      }
  return NULL;
}

/* Each header says what its column means, and its arrow which way it sorts. */
void
_tprof_operation_table_set_header_tooltips (TprofOperationTable *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    {
      GtkWidget *title = header_title_for (self, &column_specs[i]);

      if (title == NULL)
        continue;
      gtk_widget_set_tooltip_text (title, _(column_specs[i].tooltip));
      /* its sorter is reversed (see column_spec_sorter): style.css turns
       * its arrow so that it points down while the largest come first */
      if (column_specs[i].kind != COLUMN_NAME)
        gtk_widget_add_css_class (title, "reversed-sort");
    }
}

const char *
_tprof_operation_table_get_header_tooltip (TprofOperationTable *self,
                                           const char          *id)
{
  const ColumnSpec *spec = column_spec_find (id);
  GtkWidget *title;

  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), NULL);
  g_return_val_if_fail (spec != NULL, NULL);

  title = header_title_for (self, spec);
  return title != NULL ? gtk_widget_get_tooltip_text (title) : NULL;
}

/* Shows the columns the settings list (Name always) and ticks their
 * boxes in the chooser. */
void
_tprof_operation_table_apply_visible_columns (TprofOperationTable *self)
{
  g_auto(GStrv) ids = g_settings_get_strv (self->settings, "table-columns");
  GtkWidget *check = gtk_widget_get_next_sibling (gtk_widget_get_first_child (GTK_WIDGET (self->columns_box)));

  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    {
      gboolean visible = column_specs[i].kind == COLUMN_NAME
                         || (column_specs[i].kind == COLUMN_SELF ? self->tree
                             : _tprof_column_is_comparison (&column_specs[i]) ? self->comparing
                             : g_strv_contains ((const char *const *) ids, column_specs[i].id));

      gtk_column_view_column_set_visible (self->columns[i], visible);
      if (!_tprof_column_is_fixed (&column_specs[i]) && check != NULL)
        {
          gtk_check_button_set_active (GTK_CHECK_BUTTON (check), visible);
          check = gtk_widget_get_next_sibling (check);
        }
    }
}

/* A box ticked or cleared: the settings keep the visible columns in the
 * table's order. */
static void
column_check_toggled_cb (GtkCheckButton      *check,
                         TprofOperationTable *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) current = g_settings_get_strv (self->settings, "table-columns");
  g_auto(GStrv) ids = NULL;
  const char *toggled = g_object_get_data (G_OBJECT (check), "column-id");

  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    {
      const char *id = column_specs[i].id;
      gboolean shown = g_str_equal (id, toggled) ? gtk_check_button_get_active (check)
                                                 : g_strv_contains ((const char *const *) current, id);

      if (!_tprof_column_is_fixed (&column_specs[i]) && shown)
        g_strv_builder_add (builder, id);
    }
  ids = g_strv_builder_end (builder);
  if (!g_strv_equal ((const char *const *) ids, (const char *const *) current))
    g_settings_set_strv (self->settings, "table-columns", (const char *const *) ids);
}

void
_tprof_operation_table_add_column_checks (TprofOperationTable *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    {
      GtkWidget *check;

      if (_tprof_column_is_fixed (&column_specs[i]))
        continue;
      check = gtk_check_button_new_with_label (_(column_specs[i].title));
      g_object_set_data (G_OBJECT (check), "column-id", (gpointer) column_specs[i].id);
      g_signal_connect (check, "toggled", G_CALLBACK (column_check_toggled_cb), self);
      gtk_box_append (self->columns_box, check);
    }
}

gboolean
_tprof_operation_table_get_column_visible (TprofOperationTable *self,
                                           const char          *id)
{
  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    if (g_str_equal (column_specs[i].id, id))
      return gtk_column_view_column_get_visible (self->columns[i]);
  return FALSE;
}

gboolean
_tprof_operation_table_sort_by (TprofOperationTable *self,
                                const char          *id,
                                GtkSortType          order)
{
  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    if (g_str_equal (column_specs[i].id, id))
      {
        /* numeric sorters are reversed (see column_spec_sorter) */
        if (column_specs[i].kind != COLUMN_NAME)
          order = order == GTK_SORT_ASCENDING ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING;
        gtk_column_view_sort_by_column (column_specs[i].kind == COLUMN_NAME ? self->name_view : self->column_view,
                                        self->columns[i], order);
        return TRUE;
      }
  return FALSE;
}
