/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: built-in presets.  They need no preset file, so they work
 * uninstalled; presets a user saves go through GStreamer's default
 * implementation (a .prs file under the user data dir) and take precedence
 * over a built-in of the same name. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "cudafilter-presets.h"
#include "gstcudafilter.h"

typedef struct
{
  const gchar *name;
  const gchar *comment;
  /* property, value pairs in the order they are set, NULL-terminated */
  const gchar *settings[9];
} BuiltinPreset;

static const BuiltinPreset builtins[] = {
  {"soft-blur", "Light Gaussian blur (sigma 1.5)",
      {"filter", "gaussian", "sigma", "1.5", NULL}},
  {"strong-blur", "Heavy Gaussian blur (sigma 6, 37x37 taps)",
      {"filter", "gaussian", "sigma", "6", NULL}},
  {"box-blur", "Mean of each 5x5 neighbourhood",
      {"filter", "box", "kernel-size", "5", NULL}},
  {"edges", "Sobel gradient magnitude: bright edges on black",
      {"filter", "sobel", "kernel-size", "3", NULL}},
  {"edges-fine", "Scharr gradient magnitude: sharper response to fine "
        "detail", {"filter", "scharr", NULL}},
  {"outline", "Absolute Laplacian: thin outlines of every change",
      {"filter", "laplacian", "kernel-size", "3", "scale", "2", NULL}},
  {"sharpen", "Unsharp mask (sigma 1, amount 1)",
      {"filter", "sharpen", "sigma", "1", "amount", "1", NULL}},
  {"strong-sharpen", "Unsharp mask (sigma 2, amount 2.5)",
      {"filter", "sharpen", "sigma", "2", "amount", "2.5", NULL}},
  {"emboss", "Grey relief lit from the top left",
      {"kernel", "-2 -1 0; -1 0 1; 0 1 2", "filter", "custom", "offset", "128",
          NULL}},
  {"denoise", "Median of each 3x3 neighbourhood: removes salt-and-pepper "
        "noise", {"filter", "median", "kernel-size", "3", NULL}},
  {"denoise-strong", "Median of each 5x5 neighbourhood",
      {"filter", "median", "kernel-size", "5", NULL}},
  {"skin-smooth", "Bilateral smoothing that keeps edges (diameter 9)",
      {"filter", "bilateral", "kernel-size", "9", "sigma", "3",
          "sigma-color", "30", NULL}},
  {"mask-clean", "Opening with a 3x3 ellipse: removes specks from masks",
      {"filter", "open", "shape", "ellipse", "kernel-size", "3", NULL}},
};

/* Filter settings: what presets store.  Where frames are filtered
 * (backend, device, frames in flight) and statistics stay out. */
static const gchar *const preset_properties[] = {
  "filter", "sigma", "sigma-y", "kernel-size", "kernel", "divisor",
  "offset", "scale", "amount", "border", "border-value", "shape",
  "iterations", "sigma-color", "planes", NULL
};

/* Set back to their defaults before a built-in preset applies its own, in
 * an order where each intermediate state is valid (kernel-size first: an
 * old size may not suit the next filter).  planes is the user's choice of
 * components and stays. */
static const gchar *const reset_order[] = {
  "kernel-size", "sigma-y", "sigma", "amount", "divisor", "offset", "scale",
  "border", "border-value", "shape", "iterations", "sigma-color", "kernel",
  "filter", NULL
};

/* GStreamer's default implementation, copied before we override it. */
static GstPresetInterface default_iface;

static const BuiltinPreset *
find_builtin (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (builtins); i++)
    if (g_strcmp0 (builtins[i].name, name) == 0)
      return &builtins[i];
  return NULL;
}

static gboolean
is_user_preset (GstPreset * preset, const gchar * name)
{
  gchar **names = default_iface.get_preset_names (preset);
  gboolean found = names != NULL && g_strv_contains ((const gchar * const *)
      names, name);

  g_strfreev (names);
  return found;
}

static gchar **
presets_get_preset_names (GstPreset * preset)
{
  gchar **user = default_iface.get_preset_names (preset);
  GPtrArray *all = g_ptr_array_new ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (builtins); i++)
    g_ptr_array_add (all, g_strdup (builtins[i].name));
  for (i = 0; user != NULL && user[i] != NULL; i++)
    if (find_builtin (user[i]) == NULL)
      g_ptr_array_add (all, g_strdup (user[i]));
  g_ptr_array_add (all, NULL);
  g_strfreev (user);
  return (gchar **) g_ptr_array_free (all, FALSE);
}

static gchar **
presets_get_property_names (GstPreset * preset)
{
  return g_strdupv ((gchar **) preset_properties);
}

static void
reset_filter_settings (GObject * object)
{
  GObjectClass *klass = G_OBJECT_GET_CLASS (object);
  guint i;

  for (i = 0; reset_order[i] != NULL; i++) {
    GParamSpec *pspec = g_object_class_find_property (klass, reset_order[i]);

    g_object_set_property (object, reset_order[i],
        g_param_spec_get_default_value (pspec));
  }
}

static gboolean
presets_load_preset (GstPreset * preset, const gchar * name)
{
  const BuiltinPreset *builtin;
  GObject *object = G_OBJECT (preset);
  guint i;

  if (is_user_preset (preset, name)) {
    gboolean ok;

    gst_cuda_filter_begin_settings (GST_CUDA_FILTER (object));
    ok = default_iface.load_preset (preset, name);
    gst_cuda_filter_end_settings (GST_CUDA_FILTER (object));
    return ok;
  }

  builtin = find_builtin (name);
  if (builtin == NULL) {
    GST_WARNING_OBJECT (preset, "no preset named '%s'", name);
    return FALSE;
  }

  /* One notify burst, after all values are in; the stream takes them all
   * at once (the defaults in between, custom without its kernel when
   * leaving emboss, are never filtered with). */
  gst_cuda_filter_begin_settings (GST_CUDA_FILTER (object));
  g_object_freeze_notify (object);
  reset_filter_settings (object);
  for (i = 0; builtin->settings[i] != NULL; i += 2)
    gst_util_set_object_arg (object, builtin->settings[i],
        builtin->settings[i + 1]);
  g_object_thaw_notify (object);
  gst_cuda_filter_end_settings (GST_CUDA_FILTER (object));
  return TRUE;
}

static gboolean
presets_get_meta (GstPreset * preset, const gchar * name, const gchar * tag,
    gchar ** value)
{
  const BuiltinPreset *builtin;

  if (is_user_preset (preset, name))
    return default_iface.get_meta (preset, name, tag, value);

  builtin = find_builtin (name);
  if (builtin != NULL && g_strcmp0 (tag, "comment") == 0) {
    *value = g_strdup (builtin->comment);
    return TRUE;
  }
  *value = NULL;
  return FALSE;
}

void
gst_cuda_filter_presets_init_interface (gpointer g_iface, gpointer iface_data)
{
  GstPresetInterface *iface = g_iface;

  /* GObject hands us a copy of the interface's default vtable: keep it to
   * chain to for user presets (save, rename, delete, set_meta stay as
   * they are). */
  default_iface = *iface;

  iface->get_preset_names = presets_get_preset_names;
  iface->get_property_names = presets_get_property_names;
  iface->load_preset = presets_load_preset;
  iface->get_meta = presets_get_meta;
}
