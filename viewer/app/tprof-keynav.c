/* tprof-keynav.c — a list as one tab stop, and Space toggling a row's check button, for GTK 4.8. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include "tprof-keynav.h"

typedef struct
{
  GWeakRef before;
  GWeakRef after;
} Targets;

static void
targets_free (gpointer data)
{
  Targets *targets = data;

  g_weak_ref_clear (&targets->before);
  g_weak_ref_clear (&targets->after);
  g_free (targets);
}

static gboolean
focus_target (GtkWidget        *target,
              GtkDirectionType  direction)
{
  if (target == NULL || !gtk_widget_get_visible (target))
    return FALSE;
  if (gtk_widget_get_focusable (target) && gtk_widget_grab_focus (target))
    return TRUE;
  return gtk_widget_child_focus (target, direction);
}

/* The first check button in @widget or below it (a tree row's expander
 * holds it), or NULL. */
static GtkCheckButton *
find_check (GtkWidget *widget,
            guint      depth)
{
  if (GTK_IS_CHECK_BUTTON (widget))
    return GTK_CHECK_BUTTON (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL && depth > 0;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkCheckButton *check = find_check (child, depth - 1);

      if (check != NULL)
        return check;
    }
  return NULL;
}

/* The check button in the row that has the focus, or NULL. */
static GtkCheckButton *
focused_check (GtkWidget *list)
{
  GtkRoot *root = gtk_widget_get_root (list);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (focus == NULL || !gtk_widget_is_ancestor (focus, list))
    return NULL;
  return find_check (focus, 3);
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                Targets               *targets)
{
  GtkWidget *list = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  g_autoptr(GtkWidget) before = g_weak_ref_get (&targets->before);
  g_autoptr(GtkWidget) after = g_weak_ref_get (&targets->after);
  GtkCheckButton *check;

  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  if (keyval == GDK_KEY_ISO_Left_Tab || ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab) && (state & GDK_SHIFT_MASK)))
    return focus_target (before, GTK_DIR_TAB_BACKWARD);
  if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab)
    return focus_target (after, GTK_DIR_TAB_FORWARD);
  if ((keyval == GDK_KEY_space || keyval == GDK_KEY_KP_Space) && (check = focused_check (list)) != NULL)
    {
      gtk_check_button_set_active (check, !gtk_check_button_get_active (check));
      return TRUE;
    }
  return FALSE;
}

void
_tprof_keynav_one_tab_stop (GtkWidget *list,
                            GtkWidget *before,
                            GtkWidget *after)
{
  GtkEventController *keys = gtk_event_controller_key_new ();
  Targets *targets = g_new0 (Targets, 1);

  g_weak_ref_init (&targets->before, before);
  g_weak_ref_init (&targets->after, after);
  g_object_set_data_full (G_OBJECT (keys), "tprof-keynav-targets", targets, targets_free);
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), targets);
  gtk_widget_add_controller (list, keys);
}
