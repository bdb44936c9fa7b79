/* tprof-window-follow.c — TprofWindow following a running job: its live state and pause in the header bar, its end and damaged files in banners. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-window-private.h"

static GtkWidget *
child (TprofWindow *self,
       const char  *id)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (self), TPROF_TYPE_WINDOW, id));
}

/* "Live — updated 12:03:41", "Paused — …", with the ranks that stopped reporting. */
static void
show_live_state (TprofWindow *self)
{
  TprofFollow *follow = self->follow;
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (_tprof_follow_get_updated (follow) / G_USEC_PER_SEC);
  g_autofree char *time = g_date_time_format (when, "%H:%M:%S");
  guint n_stopped = 0, n_absent = 0;
  g_autofree char *stopped = _tprof_follow_dup_stopped (follow, &n_stopped);
  g_autofree char *absent = _tprof_follow_dup_not_reporting (follow, &n_absent);
  g_autofree char *capped = _tprof_follow_dup_samples_notice (follow);
  g_autofree char *text = NULL;

  if (_tprof_follow_has_ended (follow))
    /* Translators: the header bar once the job followed has ended; %s is a time of day */
    text = g_strdup_printf (_("Ended — last updated %s"), time);
  else if (_tprof_follow_get_paused (follow))
    /* Translators: the header bar while updates are paused; %s is a time of day */
    text = g_strdup_printf (_("Paused — updated %s"), time);
  else
    /* Translators: the header bar while a running job is followed; %s is a time of day */
    text = g_strdup_printf (_("Live — updated %s"), time);
  if (stopped != NULL && !_tprof_follow_has_ended (follow))
    {
      /* Translators: appended to the live state (the first %s); the second
       * %s is a rank expression (3,5-7) */
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s — rank %s stopped reporting",
                                                            "%s — ranks %s stopped reporting", n_stopped),
                                               text, stopped);

      g_free (text);
      text = g_steal_pointer (&more);
    }
  if (absent != NULL && !_tprof_follow_has_ended (follow))
    {
      /* Translators: appended to the live state (the first %s); the second
       * %s is a rank expression (3,5-7) of ranks whose spill file has not
       * appeared, left out of the arrival until it does */
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "%s — rank %s not reporting (no spill file)",
                                                            "%s — ranks %s not reporting (no spill file)", n_absent),
                                               text, absent);

      g_free (text);
      text = g_steal_pointer (&more);
    }
  if (capped != NULL)
    {
      /* Translators: appended to the live state once the samples kept for
       * the charts reached their cap; its tooltip says more */
      g_autofree char *more = g_strdup_printf (_("%s — charts hold the first samples only"), text);

      g_free (text);
      text = g_steal_pointer (&more);
    }
  gtk_label_set_text (GTK_LABEL (child (self, "live_label")), text);
  gtk_widget_set_tooltip_text (child (self, "live_label"), capped);
  gtk_widget_set_visible (child (self, "pause_button"), !_tprof_follow_has_ended (follow));
  gtk_widget_set_visible (child (self, "live_box"), TRUE);
}

/* The files of ranks with a damaged tail, in the error banner once each. */
static void
show_damage (TprofWindow *self)
{
  g_autofree char *damage = _tprof_follow_dup_damage (self->follow);
  const char *shown = g_object_get_data (G_OBJECT (self->follow), "damage-shown");

  if (damage == NULL || g_strcmp0 (damage, shown) == 0)
    return;
  _tprof_window_show_error (self, damage);
  g_object_set_data_full (G_OBJECT (self->follow), "damage-shown", g_steal_pointer (&damage), g_free);
}

static void
updated_cb (TprofWindow *self,
            TprofFollow *follow)
{
  g_autoptr(TprofProfile) profile = _tprof_follow_snapshot (follow);

  _tprof_window_show_live_profile (self, profile, FALSE);
  /* the hosts of ranks whose files appeared since */
  _tprof_rank_filter_update_hosts (self->rank_filter, profile);
  show_live_state (self);
  show_damage (self);
}

/* The job ended: the profile it wrote, when it can be found, one click
 * away, and the ranks that never reported. */
static void
ended_cb (TprofWindow *self,
          TprofFollow *follow)
{
  gboolean found = FALSE;
  guint n_absent = 0;
  g_autofree char *path = _tprof_follow_dup_profile (follow, &found);
  g_autofree char *absent = _tprof_follow_dup_no_file (follow, &n_absent);
  g_autofree char *text = NULL;

  if (path != NULL && found)
    /* Translators: %s is the profile file the job wrote */
    text = g_strdup_printf (_("The job ended and wrote its profile %s."), path);
  else if (path != NULL)
    /* Translators: %s is the profile file the job says it wrote */
    text = g_strdup_printf (_("The job ended; its profile %s was not found from here."), path);
  else
    text = g_strdup (_("The spill ended: the job wrote no profile. What it spilled is shown."));
  if (absent != NULL)
    {
      /* Translators: appended to the end banner (the first %s); the second
       * %s is a rank expression (3,5-7) of ranks whose spill file never
       * appeared */
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "%s Rank %s never reported: it has no spill file.",
                                                            "%s Ranks %s never reported: they have no spill file.",
                                                            n_absent), text, absent);

      g_free (text);
      text = g_steal_pointer (&more);
    }
  g_object_set_data_full (G_OBJECT (follow), "profile", found ? g_strdup (path) : NULL, g_free);
  gtk_label_set_text (GTK_LABEL (child (self, "follow_label")), text);
  gtk_widget_set_visible (child (self, "follow_button"), found);
  gtk_revealer_set_reveal_child (GTK_REVEALER (child (self, "follow_revealer")), TRUE);
  show_live_state (self);
}

static void
error_cb (TprofWindow *self,
          const char  *message,
          TprofFollow *follow)
{
  g_autofree char *name = g_file_get_basename (_tprof_follow_get_directory (follow));
  /* Translators: the first %s is the spill folder, the second what went wrong */
  g_autofree char *text = g_strdup_printf (_("Stopped following %s: %s"), name, message);

  _tprof_window_show_error (self, text);
  gtk_widget_set_visible (child (self, "live_box"), FALSE);
}

void
_tprof_window_stop_following (TprofWindow *self)
{
  GAction *pause;

  if (self->follow == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->follow, self);
  g_clear_object (&self->follow);
  gtk_widget_set_visible (child (self, "live_box"), FALSE);
  gtk_revealer_set_reveal_child (GTK_REVEALER (child (self, "follow_revealer")), FALSE);
  pause = g_action_map_lookup_action (G_ACTION_MAP (g_object_get_data (G_OBJECT (self), "follow-actions")),
                                      "pause");
  g_simple_action_set_state (G_SIMPLE_ACTION (pause), g_variant_new_boolean (FALSE));
  g_simple_action_set_enabled (G_SIMPLE_ACTION (pause), FALSE);
}

/* A window another's Open made learns its opener once Open returns: the
 * reason it could not follow goes back there then. */
static gboolean
hand_back_cb (gpointer user_data)
{
  g_autoptr(TprofWindow) self = user_data;
  const char *message;

  /* closed meanwhile */
  if (gtk_window_get_application (GTK_WINDOW (self)) == NULL)
    return G_SOURCE_REMOVE;
  message = _tprof_window_get_error (self);
  if (message != NULL && self->follow == NULL)
    {
      g_autofree char *text = g_strdup (message);

      _tprof_window_hand_back_error (self, text);
    }
  return G_SOURCE_REMOVE;
}

void
_tprof_window_follow (TprofWindow *self,
                      GFile       *directory)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TprofFollow) follow = _tprof_follow_new (directory, &error);
  g_autoptr(TprofProfile) profile = NULL;
  GAction *pause;

  if (follow == NULL)
    {
      g_autofree char *name = g_file_get_basename (directory);
      /* Translators: the first %s is a folder, the second what is wrong with it */
      g_autofree char *message = g_strdup_printf (_("Could not follow %s: %s"), name, error->message);

      /* what was shown stays */
      GFile *shown = self->profile != NULL ? _tprof_profile_get_file (self->profile) : NULL;

      g_set_object (&self->file, shown);
      _tprof_window_show_error (self, message);
      _tprof_window_update_actions (self);
      g_idle_add (hand_back_cb, g_object_ref (self));
      return;
    }
  _tprof_window_stop_following (self);
  _tprof_window_hide_error (self);
  self->follow = g_object_ref (follow);
  g_signal_connect_swapped (follow, "updated", G_CALLBACK (updated_cb), self);
  g_signal_connect_swapped (follow, "ended", G_CALLBACK (ended_cb), self);
  g_signal_connect_swapped (follow, "error", G_CALLBACK (error_cb), self);
  pause = g_action_map_lookup_action (G_ACTION_MAP (g_object_get_data (G_OBJECT (self), "follow-actions")), "pause");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (pause), TRUE);

  profile = _tprof_follow_snapshot (follow);
  _tprof_window_show_live_profile (self, profile, TRUE);
  show_live_state (self);
  show_damage (self);
  if (_tprof_follow_has_ended (follow))
    ended_cb (self, follow);
  else
    _tprof_follow_start (follow);
}

const char *
_tprof_window_get_live_text (TprofWindow *self)
{
  if (!gtk_widget_get_visible (child (self, "live_box")))
    return "";
  return gtk_label_get_text (GTK_LABEL (child (self, "live_label")));
}

const char *
_tprof_window_get_follow_banner (TprofWindow *self,
                                 gboolean    *offers_profile)
{
  gboolean shown = gtk_revealer_get_reveal_child (GTK_REVEALER (child (self, "follow_revealer")));

  if (offers_profile != NULL)
    *offers_profile = shown && gtk_widget_get_visible (child (self, "follow_button"));
  return shown ? gtk_label_get_text (GTK_LABEL (child (self, "follow_label"))) : NULL;
}

static void
pause_change_state (GSimpleAction *action,
                    GVariant      *state,
                    gpointer       user_data)
{
  TprofWindow *self = user_data;

  g_simple_action_set_state (action, state);
  if (self->follow == NULL)
    return;
  _tprof_follow_set_paused (self->follow, g_variant_get_boolean (state));
  show_live_state (self);
}

static void
open_profile_cb (TprofWindow *self,
                 GtkButton   *button)
{
  const char *path = self->follow != NULL ? g_object_get_data (G_OBJECT (self->follow), "profile") : NULL;
  g_autoptr(GFile) file = NULL;

  if (path == NULL)
    return;
  file = g_file_new_for_path (path);
  _tprof_window_open (self, file);
}

static void
follow_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    TprofWindow     *self)
{
  g_autoptr(GFile) directory = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    directory = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (directory != NULL)
    _tprof_window_open_files (self, &directory, 1);
  g_object_unref (dialog);
}

/* File → Follow a Running Job…: the folder of its spill files. */
static void
follow_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TprofWindow *self = TPROF_WINDOW (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Follow a Running Job: Its Spill Folder"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Follow"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (follow_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
_tprof_window_follow_class_init (GtkWidgetClass *widget_class)
{
  static const char * const ids[] = { "live_box", "live_label", "pause_button", "follow_revealer", "follow_label",
                                      "follow_button" };

  gtk_widget_class_install_action (widget_class, "win.follow", NULL, follow_action);
  /* found by child(), not kept in the window's fields */
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    gtk_widget_class_bind_template_child_full (widget_class, ids[i], FALSE, 0);
}

void
_tprof_window_follow_init (TprofWindow *self)
{
  GSimpleActionGroup *group = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) pause = g_simple_action_new_stateful ("pause", NULL, g_variant_new_boolean (FALSE));

  g_signal_connect (pause, "change-state", G_CALLBACK (pause_change_state), self);
  g_simple_action_set_enabled (pause, FALSE);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (pause));
  gtk_widget_insert_action_group (GTK_WIDGET (self), "follow", G_ACTION_GROUP (group));
  g_object_set_data_full (G_OBJECT (self), "follow-actions", group, g_object_unref);
  g_signal_connect_swapped (child (self, "follow_button"), "clicked", G_CALLBACK (open_profile_cb), self);
}
