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
  { "imbalance", N_("Imbalance"), "imbalance", COLUMN_RATIO, offsetof (TprofSummary, imbalance),
    N_("The slowest rank's total divided by the mean rank total; 1.00× is perfectly balanced") },
  { "slowest-rank", N_("Slowest"), "slowest-rank", COLUMN_RANK, offsetof (TprofSummary, slowest_rank),
    N_("The rank with the largest total time") },
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

struct _TprofOperationTable
{
  GtkWidget           parent_instance;

  GListStore         *store;
  GtkSortListModel   *sort_model;
  GtkSingleSelection *selection;
  GtkStringFilter    *name_filter;
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
      return tprof_format_duration (*(const double *) (summary + spec->offset), 3);
    case COLUMN_RATIO:
      value = *(const double *) (summary + spec->offset);
      if (isnan (value))
        return g_strdup ("—");
      /* Translators: a load imbalance factor, e.g. 1.25× */
      return g_strdup_printf (_("%.2f×"), value);
    case COLUMN_RANK:
      rank = *(const int32_t *) (summary + spec->offset);
      return rank < 0 ? g_strdup ("—") : g_strdup_printf ("%d", rank);
    case COLUMN_BASE_MEDIAN:
    case COLUMN_CHANGE:
    case COLUMN_VERDICT:
      return format_comparison (spec->kind, operation);
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
    }
  gtk_list_item_set_child (list_item, cell);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              const ColumnSpec         *spec)
{
  g_autofree char *text = column_spec_format (spec, gtk_list_item_get_item (list_item));
  GtkInscription *cell = GTK_INSCRIPTION (gtk_list_item_get_child (list_item));

  gtk_inscription_set_text (cell, text);
  if (spec->kind == COLUMN_VERDICT || spec->kind == COLUMN_CHANGE)
    {
      gboolean tested = FALSE;
      const TprofComparison *c = _tprof_operation_get_comparison (gtk_list_item_get_item (list_item), &tested);

      gtk_widget_remove_css_class (GTK_WIDGET (cell), "slower");
      gtk_widget_remove_css_class (GTK_WIDGET (cell), "faster");
      if (c != NULL && tested && c->verdict == TPROF_VERDICT_SLOWER)
        gtk_widget_add_css_class (GTK_WIDGET (cell), "slower");
      else if (c != NULL && tested && c->verdict == TPROF_VERDICT_FASTER)
        gtk_widget_add_css_class (GTK_WIDGET (cell), "faster");
    }
  if (spec->kind == COLUMN_NAME)
    gtk_widget_set_tooltip_text (GTK_WIDGET (cell), text);
  else
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
      return *(const int32_t *) (summary + spec->offset);
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

/* Each header says what its column means. */
static void
set_header_tooltips (TprofOperationTable *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (column_specs); i++)
    {
      GtkWidget *title = header_title_for (self, &column_specs[i]);

      if (title != NULL)
        gtk_widget_set_tooltip_text (title, _(column_specs[i].tooltip));
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
                         || (column_is_comparison (&column_specs[i]) ? self->comparing
                             : g_strv_contains ((const char *const *) ids, column_specs[i].id));

      gtk_column_view_column_set_visible (self->columns[i], visible);
      if (column_specs[i].kind != COLUMN_NAME && !column_is_comparison (&column_specs[i]) && check != NULL)
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

      if (column_specs[i].kind != COLUMN_NAME && !column_is_comparison (&column_specs[i]) && shown)
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

      if (column_specs[i].kind == COLUMN_NAME || column_is_comparison (&column_specs[i]))
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

static void
selection_changed_cb (TprofOperationTable *self)
{
  TprofOperation *operation = gtk_single_selection_get_selected_item (self->selection);
  int index = operation != NULL ? (int) _tprof_operation_get_index (operation) : -1;

  if (self->replacing || index == self->selected_index)
    return;
  self->selected_index = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_INDEX]);
}

void
_tprof_operation_table_select_index (TprofOperationTable *self,
                                     int                  index)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TprofOperation) operation = g_list_model_get_item (model, i);

      if ((int) _tprof_operation_get_index (operation) == index)
        {
          gtk_single_selection_set_selected (self->selection, i);
          return;
        }
    }
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
}

void
_tprof_operation_table_set_operations (TprofOperationTable *self,
                                       GPtrArray           *operations)
{
  int keep = self->selected_index;

  g_return_if_fail (TPROF_IS_OPERATION_TABLE (self));

  /* one notification at the end, so charts do not redraw for the in-between states */
  self->replacing = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       operations->pdata, operations->len);

  if (keep >= 0)
    _tprof_operation_table_select_index (self, keep);
  else if (operations->len > 0)
    gtk_single_selection_set_selected (self->selection, 0);
  self->replacing = FALSE;
  selection_changed_cb (self);
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
  return G_LIST_MODEL (self->selection);
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

void
_tprof_operation_table_set_search (TprofOperationTable *self,
                                   const char          *text)
{
  g_return_if_fail (TPROF_IS_OPERATION_TABLE (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  /* the entry delays "search-changed"; apply now so callers see the result */
  gtk_string_filter_set_search (self->name_filter, text);
}

void
_tprof_operation_table_focus_search (TprofOperationTable *self)
{
  g_return_if_fail (TPROF_IS_OPERATION_TABLE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
csv_append_field (GString    *csv,
                  const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (csv, text);
      return;
    }
  g_string_append_c (csv, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (csv, '"');
      g_string_append_c (csv, *p);
    }
  g_string_append_c (csv, '"');
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

char *
_tprof_operation_table_to_csv (TprofOperationTable *self)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (model);
  GString *csv = g_string_new ("name,count,rank_count,mean_s,std_s,min_s,median_s,p95_s,max_s,sum_s,imbalance,slowest_rank,"
                               "imbalance_time_s");

  /* comparing: the comparison's fields as tprof compare names them */
  if (self->comparing)
    g_string_append (csv, ",base_median_s,ratio,ci_low,ci_high,p_value,p_adjusted,verdict");
  g_string_append_c (csv, '\n');

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TprofOperation) operation = g_list_model_get_item (model, i);
      const TprofSummary *s = _tprof_operation_get_summary (operation);
      const double values[] = { s->mean, s->std, s->min, s->median, s->p95, s->max, s->sum, s->imbalance };

      csv_append_field (csv, _tprof_operation_get_name (operation));
      g_string_append_printf (csv, ",%zu,%zu", s->count, s->rank_count);
      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        {
          if (isnan (values[v]))
            g_string_append_c (csv, ',');
          else
            {
              g_string_append_c (csv, ',');
              tprof_append_exact_double (csv, values[v]);
            }
        }
      g_string_append_printf (csv, ",%d,", s->slowest_rank);
      if (!isnan (s->imbalance_time))
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
  gtk_string_filter_set_search (self->name_filter, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

/* Enter: the first match is selected and the table takes the keyboard. */
static void
search_activate_cb (TprofOperationTable *self,
                    GtkSearchEntry      *entry)
{
  gtk_string_filter_set_search (self->name_filter, gtk_editable_get_text (GTK_EDITABLE (entry)));
  if (g_list_model_get_n_items (G_LIST_MODEL (self->selection)) == 0)
    return;
  gtk_single_selection_set_selected (self->selection, 0);
  gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
}

/* Escape: every operation again. */
static void
search_stop_cb (TprofOperationTable *self,
                GtkSearchEntry      *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  gtk_string_filter_set_search (self->name_filter, "");
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

  gtk_widget_dispose_template (GTK_WIDGET (self), TPROF_TYPE_OPERATION_TABLE);
  /* the template's top box has no id, so unparent it ourselves */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (tprof_operation_table_parent_class)->dispose (object);
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

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "operationtable");
}

static void
tprof_operation_table_init (TprofOperationTable *self)
{
  GtkFilterListModel *filter_model;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->selected_index = -1;
  self->store = g_list_store_new (TPROF_TYPE_OPERATION);

  self->name_filter = gtk_string_filter_new (gtk_property_expression_new (TPROF_TYPE_OPERATION, NULL, "name"));
  gtk_string_filter_set_match_mode (self->name_filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->name_filter, TRUE);
  filter_model = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                            GTK_FILTER (self->name_filter));

  tprof_operation_table_add_columns (self);
  set_header_tooltips (self);

  self->sort_model = gtk_sort_list_model_new (G_LIST_MODEL (filter_model),
                                              g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sort_model));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (selection_changed_cb), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

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
