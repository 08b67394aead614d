/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the element's regions (cudafilter-regions.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafilter.h"
#include "cudafilter-regions.h"
#include "cudafilter-cuda-memory.h"
#include "cudafilter-frame-bounds.h"
#include <string.h>
#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_filter_debug

enum
{
  PROP_REGIONS,
  PROP_ROI_TYPES,
  PROP_ROI_PADDING,
  PROP_REGION_MODE,
  N_PROPS
};

static guint first_prop;

#define REGIONS_EXAMPLE "\"10,20,64,48; 200,40,32,32\""

static const GEnumValue region_modes[] = {
  {CF_REGION_INSIDE, "Filter inside the regions, leave the rest",
      "inside"},
  {CF_REGION_OUTSIDE, "Filter everything except the regions", "outside"},
  {0, NULL, NULL}
};

GType
gst_cuda_filter_region_mode_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id)) {
    GType t = g_enum_register_static ("GstCudaFilterRegionMode",
        region_modes);

    g_once_init_leave (&type_id, t);
  }
  return (GType) type_id;
}

void
gst_cuda_filter_regions_install_properties (GObjectClass * klass,
    guint first_prop_id)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  first_prop = first_prop_id;
  g_object_class_install_property (klass, first_prop + PROP_REGIONS,
      g_param_spec_string ("regions", "Regions",
          "Rectangles to filter (region-mode=inside) or to leave alone "
          "(outside), in frame pixels: \"x,y,w,h; x,y,w,h\", e.g. "
          REGIONS_EXAMPLE "; empty: none (with roi-types empty too, whole "
          "frames are filtered)", NULL, flags));
  g_object_class_install_property (klass, first_prop + PROP_ROI_TYPES,
      g_param_spec_string ("roi-types", "ROI types",
          "Which regions of each buffer's metadata to use, besides "
          "'regions': a comma list of GstVideoRegionOfInterestMeta types "
          "(and, with GStreamer >= 1.24, analytics object-detection labels), "
          "e.g. \"face\"; \"*\" for all; empty: metadata ignored", NULL,
          flags));
  g_object_class_install_property (klass, first_prop + PROP_ROI_PADDING,
      g_param_spec_uint ("roi-padding", "ROI padding",
          "Pixels added on each side of every region (from 'regions' and "
          "from metadata)", 0, 65535, 0, flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (klass, first_prop + PROP_REGION_MODE,
      g_param_spec_enum ("region-mode", "Region mode",
          "Filter inside the regions (a frame without any passes through "
          "untouched) or outside them (background blur)",
          GST_TYPE_CUDA_FILTER_REGION_MODE, CF_REGION_INSIDE, flags));
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER_REGION_MODE, 0);
}

void
gst_cuda_filter_regions_init (GstCudaFilter * self)
{
  GstCudaFilterRegions *r = &self->regions;

  memset (r, 0, sizeof (*r));
  cf_regions_init (&r->fixed);
  cf_regions_init (&r->frame);
}

void
gst_cuda_filter_regions_finalize (GstCudaFilter * self)
{
  GstCudaFilterRegions *r = &self->regions;

  g_free (r->text);
  g_free (r->types_text);
  g_strfreev (r->types);
  cf_regions_reset (&r->fixed);
  cf_regions_reset (&r->frame);
}

const gchar *
gst_cuda_filter_regions_accepted (guint prop_id)
{
  if (prop_id == first_prop + PROP_REGIONS)
    return "rectangles \"x,y,w,h\" separated by ';' (integers, w and h >= "
        "0), e.g. " REGIONS_EXAMPLE ", or an empty string";
  return NULL;
}

/* "face, licence-plate" → { "face", "licence-plate" }; NULL when empty. */
static gchar **
parse_types (const gchar * text, gboolean * all)
{
  gchar **parts, **types;
  guint i, n = 0;

  *all = FALSE;
  if (text == NULL)
    return NULL;
  parts = g_strsplit (text, ",", -1);
  types = g_new0 (gchar *, g_strv_length (parts) + 1);
  for (i = 0; parts[i] != NULL; i++) {
    gchar *t = g_strstrip (parts[i]);

    if (*t == '\0')
      continue;
    if (g_strcmp0 (t, "*") == 0)
      *all = TRUE;
    types[n++] = g_strdup (t);
  }
  g_strfreev (parts);
  if (n == 0) {
    g_free (types);
    return NULL;
  }
  return types;
}

gboolean
gst_cuda_filter_regions_set_property (GstCudaFilter * self, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFilterRegions *r = &self->regions;

  if (prop_id < first_prop || prop_id >= first_prop + N_PROPS)
    return FALSE;

  switch (prop_id - first_prop) {
    case PROP_REGIONS:{
      const gchar *text = g_value_get_string (value);
      CfRegions parsed;
      GError *err = NULL;

      /* Parsed outside the lock; the refusal reads the old value. */
      cf_regions_init (&parsed);
      if (!cf_regions_parse (text, &parsed, &err)) {
        gst_cuda_filter_warn_invalid (self, pspec, value, err);
        g_error_free (err);
        cf_regions_reset (&parsed);
        return TRUE;
      }
      GST_OBJECT_LOCK (self);
      g_free (r->text);
      r->text = parsed.n_rects > 0 ? g_strdup (text) : NULL;
      cf_regions_reset (&r->fixed);
      r->fixed = parsed;
      GST_OBJECT_UNLOCK (self);
      break;
    }
    case PROP_ROI_TYPES:{
      gboolean all;
      gchar **types = parse_types (g_value_get_string (value), &all);

      GST_OBJECT_LOCK (self);
      g_free (r->types_text);
      r->types_text = types ? g_value_dup_string (value) : NULL;
      g_strfreev (r->types);
      r->types = types;
      r->all_types = all;
      GST_OBJECT_UNLOCK (self);
      break;
    }
    case PROP_ROI_PADDING:
      GST_OBJECT_LOCK (self);
      r->padding = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_REGION_MODE:
      GST_OBJECT_LOCK (self);
      r->mode = (CfRegionMode) g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
  }
  return TRUE;
}

gboolean
gst_cuda_filter_regions_get_property (GstCudaFilter * self, guint prop_id,
    GValue * value)
{
  GstCudaFilterRegions *r = &self->regions;

  if (prop_id < first_prop || prop_id >= first_prop + N_PROPS)
    return FALSE;

  GST_OBJECT_LOCK (self);
  switch (prop_id - first_prop) {
    case PROP_REGIONS:
      g_value_set_string (value, r->text);
      break;
    case PROP_ROI_TYPES:
      g_value_set_string (value, r->types_text);
      break;
    case PROP_ROI_PADDING:
      g_value_set_uint (value, r->padding);
      break;
    case PROP_REGION_MODE:
      g_value_set_enum (value, r->mode);
      break;
  }
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
type_wanted (const GstCudaFilterRegions * r, GQuark type)
{
  const gchar *name = g_quark_to_string (type);
  guint i;

  if (r->all_types)
    return TRUE;
  for (i = 0; name != NULL && r->types[i] != NULL; i++)
    if (g_strcmp0 (r->types[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* Appends the buffer's metadata regions of the wanted types (object lock
 * held: nothing here calls out). */
static void
add_meta_regions (GstCudaFilterRegions * r, GstBuffer * buffer)
{
  GstVideoRegionOfInterestMeta *roi;
  gpointer state = NULL;
  GstMeta *meta;

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) != NULL) {
    roi = (GstVideoRegionOfInterestMeta *) meta;
    if (type_wanted (r, roi->roi_type))
      cf_regions_add (&r->frame, (int) MIN (roi->x, G_MAXINT / 2),
          (int) MIN (roi->y, G_MAXINT / 2), (int) MIN (roi->w, G_MAXINT / 2),
          (int) MIN (roi->h, G_MAXINT / 2));
  }
#ifdef HAVE_GST_ANALYTICS
  {
    GstAnalyticsRelationMeta *rmeta =
        gst_buffer_get_analytics_relation_meta (buffer);
    GstAnalyticsODMtd od;
    gint x, y, w, h;

    state = NULL;
    while (rmeta != NULL && gst_analytics_relation_meta_iterate (rmeta,
            &state, gst_analytics_od_mtd_get_mtd_type (), &od)) {
      if (type_wanted (r, gst_analytics_od_mtd_get_obj_type (&od))
          && gst_analytics_od_mtd_get_location (&od, &x, &y, &w, &h, NULL))
        cf_regions_add (&r->frame, x, y, w, h);
    }
  }
#endif
}

const CfRegions *
gst_cuda_filter_regions_for_buffer (GstCudaFilter * self, GstBuffer * buffer,
    const GstVideoInfo * info)
{
  GstCudaFilterRegions *r = &self->regions;
  guint padding;
  int merges;

  cf_regions_clear (&r->frame);
  GST_OBJECT_LOCK (self);
  if (r->text == NULL && r->types == NULL) {
    GST_OBJECT_UNLOCK (self);
    return NULL;
  }
  r->frame.mode = r->mode;
  padding = r->padding;
  cf_regions_append (&r->frame, &r->fixed);
  if (r->types != NULL)
    add_meta_regions (r, buffer);
  GST_OBJECT_UNLOCK (self);

  merges = cf_regions_fit (&r->frame, (int) padding,
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
  if (merges > 0 && !r->merge_warned) {
    r->merge_warned = TRUE;
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("A frame has more than %d regions: neighbouring regions were "
            "merged into their bounding boxes, so more than they cover is "
            "%s.", CF_REGIONS_MAX, r->frame.mode == CF_REGION_INSIDE ?
            "filtered" : "left unfiltered"), (NULL));
  }
  if (r->frame.mode == CF_REGION_OUTSIDE && r->frame.n_rects == 0)
    return NULL;
  return &r->frame;
}

gboolean
gst_cuda_filter_regions_none (const CfRegions * regions)
{
  return regions != NULL && regions->mode == CF_REGION_INSIDE
      && regions->n_rects == 0;
}

gboolean
gst_cuda_filter_regions_keep_meta (GType api)
{
  if (api == GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)
    return TRUE;
#ifdef HAVE_GST_ANALYTICS
  if (api == GST_ANALYTICS_RELATION_META_API_TYPE)
    return TRUE;
#endif
  return FALSE;
}

gboolean
gst_cuda_filter_regions_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  GstBaseTransformClass *parent =
      GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_VIDEO_FILTER));

  if (gst_cuda_filter_regions_keep_meta (meta->info->api))
    return TRUE;
  return parent->transform_meta (trans, outbuf, meta, inbuf);
}

gboolean
gst_cuda_filter_regions_input_in_bounds (GstCudaFilter * self,
    GstBuffer * buffer, const GstVideoInfo * info)
{
  GstVideoFrame frame;
  gchar *why = NULL;
  gboolean ok;

  /* Mapping CUDA memory for the host would copy it: checked where it is
   * read (never, for a frame passed on). */
  if (gst_buffer_n_memory (buffer) > 0
      && cudafilter_cuda_is_cuda_memory (gst_buffer_peek_memory (buffer, 0)))
    return TRUE;
  if (!gst_video_frame_map (&frame, (GstVideoInfo *) info, buffer,
          GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The input buffer is smaller than its caps or video meta say: it "
            "cannot be mapped as %s %dx%d.", GST_VIDEO_INFO_NAME (info),
            GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info)),
        (NULL));
    return FALSE;
  }
  ok = gst_cuda_filter_frame_in_bounds (&frame, &why);
  gst_video_frame_unmap (&frame);
  if (!ok) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The input buffer is smaller than its video meta says: %s.", why),
        ("input buffer %" GST_PTR_FORMAT, buffer));
    g_free (why);
  }
  return ok;
}

gboolean
gst_cuda_filter_regions_can_pass (GstCudaFilter * self)
{
  GstCaps *in = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (self));
  GstCaps *out = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (self));
  gboolean same = in != NULL && out != NULL && gst_caps_get_size (in) > 0
      && gst_caps_get_size (out) > 0
      && gst_caps_features_is_equal (gst_caps_get_features (in, 0),
      gst_caps_get_features (out, 0));

  gst_clear_caps (&in);
  gst_clear_caps (&out);
  return same;
}

gboolean
gst_cuda_filter_regions_in_place (GstCudaFilter * self,
    const CfRegions * regions, GstBuffer * inbuf)
{
  GstVideoFilter *vfilter = GST_VIDEO_FILTER (self);
  gboolean pushed, ok;

  if (regions == NULL || regions->mode != CF_REGION_INSIDE
      || !gst_buffer_is_writable (inbuf)
      || !gst_buffer_is_all_memory_writable (inbuf)
      || !gst_video_info_is_equal (&vfilter->in_info, &vfilter->out_info)
      || !gst_cuda_filter_regions_can_pass (self))
    return FALSE;
  pushed = cudafilter_cuda_push (self);
  ok = cf_backend_regions_in_place (self->backend, self->spec, &self->layout,
      regions);
  cudafilter_cuda_pop (pushed);
  return ok;
}
