/* tprof-operation-table.c — TprofOperationTable: column view over searched and sorted TprofOperation rows. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "tprof-keynav.h"
#include "tprof-operation-table.h"
#include "tprof-plot.h"

typedef enum
{
  COLUMN_NAME,
  COLUMN_COUNT,      /* a size_t field of TprofSummary */
  COLUMN_DURATION,   /* a double field, seconds */
  COLUMN_RATIO,      /* a double field without unit */
  COLUMN_RANK,       /* an int32 field, -1 for none */
  /* comparing with a baseline: shown only then, and not in the chooser */
  COLUMN_BASE_MEDIAN,  /* the baseline's median */
  COLUMN_CHANGE,       /* new median / baseline median, as a change */
  COLUMN_VERDICT,      /* slower, faster, same, ... */
  /* with an operation tree: shown only then, and not in the chooser */
  COLUMN_SELF,         /* the sum of the self times, seconds */
} ColumnKind;

typedef struct
{
  const char *id;
  const char *title;
  const char *property;
  ColumnKind  kind;
  gsize       offset;   /* into TprofSummary */
  const char *tooltip;  /* what the column means, on its header */
} ColumnSpec;

/* The columns that answer "which operation, which rank" come first, so
 * that they show in a window of 1000 px; the distribution follows. The
 * default order is by the time lost to imbalance: an operation where the
 * ranks wait long for the slowest, weighted by time (a 46 ms operation
 * with a large ratio does not come before a 5 s one). */
static const ColumnSpec column_specs[] = {
  { "name", N_("Name"), "name", COLUMN_NAME, 0, N_("The operation, as the program named it") },
  /* comparing: right after the name, what changed */
  { "verdict", N_("Verdict"), NULL, COLUMN_VERDICT, 0,
    N_("Slower or faster than the baseline: a Mann–Whitney test of the samples, Holm-adjusted over the "
       "operations, p below 0.05 and a change of the median of more than 2 %") },
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
  { "count", N_("Count"), "count", COLUMN_COUNT, offsetof (TprofSummary, count), N_("The number of samples") },
  { "ranks", N_("Ranks"), "rank-count", COLUMN_COUNT, offsetof (TprofSummary, rank_count),
    N_("The number of ranks with samples") },
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
};

static gboolean
column_is_comparison (const ColumnSpec *spec)
{
  return spec->kind == COLUMN_BASE_MEDIAN || spec->kind == COLUMN_CHANGE || spec->kind == COLUMN_VERDICT;
}

/* Columns the chooser does not offer: the name, and those shown only in a
 * mode (comparing, the tree). */
static gboolean
column_is_fixed (const ColumnSpec *spec)
{
  return spec->kind == COLUMN_NAME || spec->kind == COLUMN_SELF || column_is_comparison (spec);
}

struct _TprofOperationTable
{
  GtkWidget           parent_instance;

  GListStore         *store;        /* every operation, in profile order */
  GtkTreeListModel   *tree_model;   /* the top level (every operation without a tree), expanded */
  GtkSortListModel   *sort_model;   /* sorted within each level */
  GtkSingleSelection *selection;    /* of GtkTreeListRow */
  GListModel         *operations;   /* the rows shown as TprofOperation, in order */
  GtkFilter          *search_filter;  /* a name matches, or one of an operation's descendants' */
  char               *search;       /* casefolded; NULL: every operation */
  GPtrArray          *children;     /* per operation index: GPtrArray of its TprofOperation children, or NULL */
  gboolean            tree;         /* the operations form a tree (the profile has a timeline) */
  double              scroll_value;   /* where the view goes back to after a refill */
  GdkFrameClock      *scroll_clock;   /* until the next frame is painted */
  gulong              scroll_handler;
  GtkColumnViewColumn *columns[G_N_ELEMENTS (column_specs)];
  int                 selected_index;
  gboolean            replacing;   /* rows are being swapped: the selection is in flux */

  GSettings          *settings;     /* table-columns */
  gboolean            comparing;    /* the comparison's columns show */

  /* template widgets */
  GtkSearchEntry     *search_entry;
  GtkColumnView      *column_view;
  GtkBox             *columns_box;
  GtkWidget          *columns_button;
};

enum {
  PROP_0,
  PROP_SELECTED_INDEX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TprofOperationTable, tprof_operation_table, GTK_TYPE_WIDGET)

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
 * (DESIGN.md 2b); the others cover everything recorded. */
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

static void
tprof_operation_table_add_columns (TprofOperationTable *self)
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
      gtk_column_view_append_column (self->column_view, column);
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
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view)); child != NULL;
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
static void
set_header_tooltips (TprofOperationTable *self)
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
static void
apply_visible_columns (TprofOperationTable *self)
{
  g_auto(GStrv) ids = g_settings_get_strv (self->settings, "table-columns");
  GtkWidget *check = gtk_widget_get_next_sibling (gtk_widget_get_first_child (GTK_WIDGET (self->columns_box)));

  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    {
      gboolean visible = column_specs[i].kind == COLUMN_NAME
                         || (column_specs[i].kind == COLUMN_SELF ? self->tree
                             : column_is_comparison (&column_specs[i]) ? self->comparing
                             : g_strv_contains ((const char *const *) ids, column_specs[i].id));

      gtk_column_view_column_set_visible (self->columns[i], visible);
      if (!column_is_fixed (&column_specs[i]) && check != NULL)
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

      if (!column_is_fixed (&column_specs[i]) && shown)
        g_strv_builder_add (builder, id);
    }
  ids = g_strv_builder_end (builder);
  if (!g_strv_equal ((const char *const *) ids, (const char *const *) current))
    g_settings_set_strv (self->settings, "table-columns", (const char *const *) ids);
}

static void
add_column_checks (TprofOperationTable *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    {
      GtkWidget *check;

      if (column_is_fixed (&column_specs[i]))
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

static TprofOperation *
operation_at_index (TprofOperationTable *self,
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
  g_autoptr(TprofOperation) operation = operation_at_index (self, index);
  guint depth = 0;

  for (gssize parent = operation != NULL ? _tprof_operation_get_parent (operation) : -1;
       parent >= 0 && depth++ < g_list_model_get_n_items (G_LIST_MODEL (self->store));)
    {
      g_autoptr(TprofOperation) up = operation_at_index (self, (int) parent);
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
   * held a stale one must re-anchor it */
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
    apply_visible_columns (self);
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
  apply_visible_columns (self);
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
        gtk_column_view_sort_by_column (self->column_view, self->columns[i], order);
        return TRUE;
      }
  return FALSE;
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

/* The comparison's fields of @operation: empty where unknown, "untested"
 * for a verdict the samples at hand could not decide. */
static void
csv_append_comparison (GString        *csv,
                       TprofOperation *operation)
{
  gboolean tested = FALSE;
  const TprofComparison *c = _tprof_operation_get_comparison (operation, &tested);
  double values[6] = { NAN, NAN, NAN, NAN, NAN, NAN };

  if (c != NULL)
    {
      values[0] = c->base_median;
      values[1] = c->ratio;
      values[2] = c->ci_low;
      values[3] = c->ci_high;
      values[4] = c->p_value;
      values[5] = c->p_adjusted;
    }
  for (guint v = 0; v < G_N_ELEMENTS (values); v++)
    {
      g_string_append_c (csv, ',');
      if (isfinite (values[v]))
        tprof_append_exact_double (csv, values[v]);
    }
  g_string_append_c (csv, ',');
  if (c != NULL)
    g_string_append (csv, tested || c->verdict == TPROF_VERDICT_ONLY_NEW ? tprof_verdict_name (c->verdict)
                                                                         : "untested");
}

/* The parent's name, NULL at the top or without a tree (owned by the table). */
static const char *
csv_parent_name (TprofOperationTable *self,
                 TprofOperation      *operation)
{
  g_autoptr(TprofOperation) parent = operation_at_index (self, (int) _tprof_operation_get_parent (operation));

  return parent != NULL ? _tprof_operation_get_name (parent) : NULL;
}

/* tprof summary --format csv's columns (the one schema of the operations
 * table), then the time lost to imbalance and, comparing, the comparison's
 * fields as tprof compare names them. */
char *
_tprof_operation_table_to_csv (TprofOperationTable *self)
{
  GListModel *model = self->operations;
  guint n = g_list_model_get_n_items (model);
  GString *csv = g_string_new (TPROF_SUMMARY_CSV_HEADER ",imbalance_time");

  if (self->comparing)
    g_string_append (csv, ",base_median,ratio,ci_low,ci_high,p_value,p_adjusted,verdict");
  g_string_append_c (csv, '\n');

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TprofOperation) operation = g_list_model_get_item (model, i);
      const TprofSummary *s = _tprof_operation_get_summary (operation);

      tprof_summary_csv_append_row (csv, _tprof_operation_get_name (operation), s,
                                    self->tree ? csv_parent_name (self, operation) : NULL,
                                    _tprof_operation_get_self (operation), _tprof_operation_is_sampled (operation),
                                    _tprof_operation_get_stored (operation));
      g_string_append_c (csv, ',');
      if (isfinite (s->imbalance_time))
        tprof_append_exact_double (csv, s->imbalance_time);
      if (self->comparing)
        csv_append_comparison (csv, operation);
      g_string_append_c (csv, '\n');
    }

  return g_string_free (csv, FALSE);
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
  gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
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
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, column_view);
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, columns_box);
  gtk_widget_class_bind_template_child (widget_class, TprofOperationTable, columns_button);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);

  /* bound on the column view in the template (the search entry keeps its keys) */
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
  GtkTreeListRowSorter *row_sorter;

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

  tprof_operation_table_add_columns (self);
  set_header_tooltips (self);

  /* the column's order applies among siblings; children stay under their parent */
  row_sorter = gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->tree_model)), GTK_SORTER (row_sorter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sort_model));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (selection_changed_cb), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  self->operations = G_LIST_MODEL (gtk_map_list_model_new (g_object_ref (G_LIST_MODEL (self->selection)),
                                                           row_operation, NULL, NULL));
  g_signal_connect_object (self->selection, "items-changed", G_CALLBACK (rows_changed_cb), self, G_CONNECT_SWAPPED);

  add_column_checks (self);
  self->settings = g_settings_new (APP_ID);
  g_signal_connect_swapped (self->settings, "changed::table-columns", G_CALLBACK (apply_visible_columns), self);
  apply_visible_columns (self);
}

void
_tprof_operation_table_set_next_focus (TprofOperationTable *self,
                                       GtkWidget           *next)
{
  g_return_if_fail (TPROF_IS_OPERATION_TABLE (self));
  _tprof_keynav_one_tab_stop (GTK_WIDGET (self->column_view), self->columns_button, next);
}

GtkWidget *
_tprof_operation_table_get_view (TprofOperationTable *self)
{
  g_return_val_if_fail (TPROF_IS_OPERATION_TABLE (self), NULL);
  return GTK_WIDGET (self->column_view);
}
