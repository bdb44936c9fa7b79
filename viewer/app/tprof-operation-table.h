/* tprof-operation-table.h — TprofOperationTable: the searchable, sortable table of per-operation statistics. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "tprof-operation.h"

G_BEGIN_DECLS

#define TPROF_TYPE_OPERATION_TABLE (tprof_operation_table_get_type ())
G_DECLARE_FINAL_TYPE (TprofOperationTable, tprof_operation_table, TPROF, OPERATION_TABLE, GtkWidget)

/* Replaces the rows with @operations (of TprofOperation), keeping the
 * selected operation selected; with nothing selected before, selects the first row. */
void        _tprof_operation_table_set_operations (TprofOperationTable *self,
                                                   GPtrArray           *operations);
/* The rows as shown: searched and sorted. */
/* Shows the columns of a comparison with a baseline (Baseline Median,
 * Change, Verdict), which the rows then fill. */
void        _tprof_operation_table_set_comparing (TprofOperationTable *self,
                                                  gboolean             comparing);
/* The rows shown, in order, as TprofOperation (those inside a collapsed
 * operation are not shown). */
GListModel *_tprof_operation_table_get_model      (TprofOperationTable *self);
/* TRUE when the rows form the operation tree (operations with a parent
 * show under it, and the Self column shows). */
gboolean    _tprof_operation_table_is_tree        (TprofOperationTable *self);
/* Expands or collapses the row of operation @index: FALSE when it is not
 * shown or has nothing inside. */
gboolean    _tprof_operation_table_set_expanded   (TprofOperationTable *self,
                                                   int                  index,
                                                   gboolean             expanded);
/* The depth of operation @index's row (0 at the top, or when not shown). */
guint       _tprof_operation_table_get_depth      (TprofOperationTable *self,
                                                   int                  index);
/* Profile index of the selected operation, -1 when none ("selected-index"). */
int         _tprof_operation_table_get_selected_index (TprofOperationTable *self);
void        _tprof_operation_table_select_index   (TprofOperationTable *self,
                                                   int                  index);
/* Sorts by the column @id ("name", "count", "mean", ...); FALSE when unknown. */
gboolean    _tprof_operation_table_sort_by        (TprofOperationTable *self,
                                                   const char          *id,
                                                   GtkSortType          order);
void        _tprof_operation_table_set_search     (TprofOperationTable *self,
                                                   const char          *text);
void        _tprof_operation_table_focus_search   (TprofOperationTable *self);
/* The shown rows as CSV with a header, times in seconds. */
char       *_tprof_operation_table_to_csv         (TprofOperationTable *self);
/* The text the cell of column @id shows for @operation (for tests and CSV checks). */
char       *_tprof_operation_table_format_cell    (const char          *id,
                                                   TprofOperation      *operation);

/* Whether column @id shows (the settings' table-columns choose them). */
gboolean _tprof_operation_table_get_column_visible (TprofOperationTable *self,
                                                    const char          *id);

/* Tab from the table goes to @next (Shift+Tab to the columns button):
 * the table is one tab stop, its arrows move between rows. */
void     _tprof_operation_table_set_next_focus (TprofOperationTable *self,
                                                GtkWidget           *next);

/* The tooltip on column @id's header (what the column means), for tests. */
const char *_tprof_operation_table_get_header_tooltip (TprofOperationTable *self,
                                                       const char          *id);
/* The column view of Name (the table's tab stop, with the tree's keys),
 * and that of the statistics beside it, which scrolls sideways; for tests. */
GtkWidget *_tprof_operation_table_get_view       (TprofOperationTable *self);
GtkWidget *_tprof_operation_table_get_stats_view (TprofOperationTable *self);

G_END_DECLS
