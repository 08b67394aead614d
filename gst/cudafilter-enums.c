/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the enum types of the element's properties.  The nicks are the
 * public interface (gst-launch-1.0 syntax); keep them stable. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudafilter-enums.h"
#include "cf-spec.h"

/* The element's enums are the engine's: the values, and the nicks and
 * descriptions from the engine's tables (cf-spec.c). */
#define SAME_FILTER(x) \
  G_STATIC_ASSERT ((int) GST_CUDA_FILTER_MODE_##x == (int) CF_FILTER_##x)
SAME_FILTER (GAUSSIAN);
SAME_FILTER (BOX);
SAME_FILTER (SOBEL);
SAME_FILTER (SOBEL_X);
SAME_FILTER (SOBEL_Y);
SAME_FILTER (SCHARR);
SAME_FILTER (LAPLACIAN);
SAME_FILTER (SHARPEN);
SAME_FILTER (CUSTOM);
SAME_FILTER (MEDIAN);
SAME_FILTER (ERODE);
SAME_FILTER (DILATE);
SAME_FILTER (OPEN);
SAME_FILTER (CLOSE);
SAME_FILTER (GRADIENT);
SAME_FILTER (TOPHAT);
SAME_FILTER (BLACKHAT);
SAME_FILTER (BILATERAL);
SAME_FILTER (PIXELATE);
G_STATIC_ASSERT (GST_CUDA_FILTER_MODE_PIXELATE + 1 == CF_N_FILTERS);

#define SAME_SHAPE(x) \
  G_STATIC_ASSERT ((int) GST_CUDA_FILTER_SHAPE_##x == (int) CF_SHAPE_##x)
SAME_SHAPE (RECT);
SAME_SHAPE (ELLIPSE);
SAME_SHAPE (CROSS);
G_STATIC_ASSERT (GST_CUDA_FILTER_SHAPE_CROSS + 1 == CF_N_SHAPES);

#define SAME_BORDER(x) \
  G_STATIC_ASSERT ((int) GST_CUDA_FILTER_BORDER_##x == (int) CF_BORDER_##x)
SAME_BORDER (REFLECT101);
SAME_BORDER (REPLICATE);
SAME_BORDER (REFLECT);
SAME_BORDER (WRAP);
SAME_BORDER (CONSTANT);
G_STATIC_ASSERT (GST_CUDA_FILTER_BORDER_CONSTANT + 1 == CF_N_BORDERS);

#define DEFINE_ENUM_TYPE(func, TypeName, values, fill)               \
GType                                                                \
func (void)                                                          \
{                                                                    \
  static gsize type_id = 0;                                          \
                                                                     \
  if (g_once_init_enter (&type_id)) {                                \
    GType t;                                                         \
                                                                     \
    fill;                                                            \
    t = g_enum_register_static (TypeName, values);                   \
    g_once_init_leave (&type_id, t);                                 \
  }                                                                  \
  return (GType) type_id;                                            \
}

/* Filled once, before their types register; the last entries stay zero. */
static GEnumValue filter_modes[CF_N_FILTERS + 1];
static GEnumValue border_modes[CF_N_BORDERS + 1];
static GEnumValue shapes[CF_N_SHAPES + 1];

static void
fill_filter_modes (void)
{
  int i;

  for (i = 0; i < CF_N_FILTERS; i++) {
    filter_modes[i].value = cf_filters[i].filter;
    filter_modes[i].value_name = cf_filters[i].blurb;
    filter_modes[i].value_nick = cf_filters[i].nick;
  }
}

static void
fill_border_modes (void)
{
  int i;

  for (i = 0; i < CF_N_BORDERS; i++) {
    border_modes[i].value = cf_borders[i].border;
    border_modes[i].value_name = cf_borders[i].blurb;
    border_modes[i].value_nick = cf_borders[i].nick;
  }
}

static void
fill_shapes (void)
{
  int i;

  for (i = 0; i < CF_N_SHAPES; i++) {
    shapes[i].value = cf_shapes[i].shape;
    shapes[i].value_name = cf_shapes[i].blurb;
    shapes[i].value_nick = cf_shapes[i].nick;
  }
}

/* "a, b or c" of the filters that read any of `reads` (every filter for
 * 0), each with its gloss if `glosses`; "a only" for a single one.
 * Interned: for param spec blurbs, which must outlive the class. */
const gchar *
gst_cuda_filter_list_filters (CfFilterReads reads, gboolean glosses,
    const gchar * last_separator)
{
  GString *s = g_string_new (NULL);
  const CfFilterInfo *only = NULL;
  const gchar *text;
  int i, n = 0, count = 0;

  for (i = 0; i < CF_N_FILTERS; i++)
    if (reads == 0 || (cf_filters[i].reads & reads))
      count++;
  for (i = 0; i < CF_N_FILTERS; i++) {
    const CfFilterInfo *f = &cf_filters[i];

    if (reads != 0 && !(f->reads & reads))
      continue;
    if (n > 0)
      g_string_append (s, n + 1 == count ? last_separator : ", ");
    g_string_append (s, f->nick);
    if (glosses && f->gloss != NULL)
      g_string_append_printf (s, " (%s)", f->gloss);
    only = f;
    n++;
  }
  if (n == 1)
    g_string_printf (s, "%s only", only->nick);
  text = g_intern_string (s->str);
  g_string_free (s, TRUE);
  return text;
}

static const GEnumValue backends[] = {
  {GST_CUDA_FILTER_BACKEND_AUTO,
      "CUDA when a device is usable, else the CPU", "auto"},
  {GST_CUDA_FILTER_BACKEND_CUDA, "CUDA device (error without one)", "cuda"},
  {GST_CUDA_FILTER_BACKEND_CPU, "CPU", "cpu"},
  {0, NULL, NULL}
};

static const GEnumValue planes[] = {
  {GST_CUDA_FILTER_PLANES_ALL, "Filter every colour component", "all"},
  {GST_CUDA_FILTER_PLANES_LUMA,
      "Filter luma only; YUV chroma passes through", "luma"},
  {0, NULL, NULL}
};

DEFINE_ENUM_TYPE (gst_cuda_filter_mode_get_type, "GstCudaFilterMode",
    filter_modes, fill_filter_modes ());
DEFINE_ENUM_TYPE (gst_cuda_filter_border_get_type, "GstCudaFilterBorder",
    border_modes, fill_border_modes ());
DEFINE_ENUM_TYPE (gst_cuda_filter_shape_get_type, "GstCudaFilterShape",
    shapes, fill_shapes ());
DEFINE_ENUM_TYPE (gst_cuda_filter_backend_get_type, "GstCudaFilterBackend",
    backends, (void) 0);
DEFINE_ENUM_TYPE (gst_cuda_filter_planes_get_type, "GstCudaFilterPlanes",
    planes, (void) 0);
