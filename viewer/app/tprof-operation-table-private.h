/* tprof-operation-table-private.h — TprofOperationTable's state and column table, shared by its files (columns, CSV, views, the rest). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-operation-table.h"
#include "tprof-plot.h"

G_BEGIN_DECLS

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

/* The table's columns, in their default order (tprof-operation-table-columns.c). */
#define N_COLUMN_SPECS 18
extern const ColumnSpec _tprof_operation_table_column_specs[N_COLUMN_SPECS];

struct _TprofOperationTable
{
  GtkWidget           parent_instance;

  GListStore         *store;        /* every operation, in profile order */
  GtkTreeListModel   *tree_model;   /* the top level (every operation without a tree), expanded */
  GtkSortListModel   *sort_model;   /* sorted within each level */
  GtkTreeListRowSorter *row_sorter; /* by the header clicked last, in either half */
  gboolean            syncing_sort;
  gboolean            syncing_scroll;
  GtkAdjustment      *scroll_leader;  /* the half scrolled last, until the other follows */
  GdkFrameClock      *layout_clock;   /* whose layout the other half follows in (not owned) */
  GtkSingleSelection *selection;    /* of GtkTreeListRow */
  GListModel         *operations;   /* the rows shown as TprofOperation, in order */
  GtkFilter          *search_filter;  /* a name matches, or one of an operation's descendants' */
  char               *search;       /* casefolded; NULL: every operation */
  GPtrArray          *children;     /* per operation index: GPtrArray of its TprofOperation children, or NULL */
  gboolean            tree;         /* the operations form a tree (the profile has a timeline) */
  double              scroll_value;   /* where the view goes back to after a refill */
  GdkFrameClock      *scroll_clock;   /* until the next frame is painted */
  gulong              scroll_handler;
  GtkColumnViewColumn *columns[N_COLUMN_SPECS];
  int                 selected_index;
  gboolean            replacing;   /* rows are being swapped: the selection is in flux */

  GSettings          *settings;     /* table-columns */
  gboolean            comparing;    /* the comparison's columns show */

  /* template widgets */
  GtkSearchEntry     *search_entry;
  GtkScrolledWindow  *name_window;  /* never scrolls sideways */
  GtkColumnView      *name_view;    /* Name, with the tree's expanders */
  GtkScrolledWindow  *stats_window;
  GtkColumnView      *column_view;  /* the statistics */
  GtkScrollbar       *stats_scrollbar;  /* under the statistics alone */
  GtkBox             *columns_box;
  GtkWidget          *columns_button;
};

/* tprof-operation-table-columns.c */
gboolean        _tprof_column_is_comparison (const ColumnSpec *spec);
/* Not offered by the chooser: the name, and those shown only in a mode. */
gboolean        _tprof_column_is_fixed      (const ColumnSpec *spec);
/* Creates every column of the table's column view. */
void            _tprof_operation_table_add_columns         (TprofOperationTable *self);
void            _tprof_operation_table_set_header_tooltips (TprofOperationTable *self);
/* Shows the columns the settings list, and ticks the chooser's boxes. */
void            _tprof_operation_table_apply_visible_columns (TprofOperationTable *self);
void            _tprof_operation_table_add_column_checks   (TprofOperationTable *self);

/* tprof-operation-table-views.c */
/* Makes the two halves one table: they scroll together, the tree's
 * keys on both; returns the rows' sorter (not owned), which follows the
 * header clicked last in either half. */
GtkSorter      *_tprof_operation_table_join_views       (TprofOperationTable *self);
void            _tprof_operation_table_set_views_model  (TprofOperationTable *self,
                                                         GtkSelectionModel   *model);

/* tprof-operation-table.c */
/* The row of operation @index (a new reference), or NULL. */
TprofOperation *_tprof_operation_table_operation_at (TprofOperationTable *self,
                                                     int                  index);

G_END_DECLS
