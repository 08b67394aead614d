/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: pinning the upstream system memory that pools recycle. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudafilter-pin.h"
#include "cf-host-memory.h"

#define SEEN_QUARK (g_quark_from_static_string ("cudafilter-seen"))
#define PINNED_QUARK (g_quark_from_static_string ("cudafilter-pinned"))

/* One lock for every element in the process: the qdata of a memory that
 * several elements see (behind a tee) is checked and set as one step, so
 * exactly one of them registers it and owns the pin.  Taken only for
 * memory not pinned yet: twice in the life of a pool's memory. */
static GMutex pin_lock;

typedef struct
{
  gpointer base;
  gint device;
} Pin;

static void
unpin (gpointer data)
{
  Pin *pin = data;

  cf_host_unregister (pin->base, pin->device);
  g_free (pin);
}

/* With pin_lock held. */
static void
pin_locked (GstMemory * mem, gint device)
{
  GstMiniObject *root = GST_MINI_OBJECT_CAST (mem);
  GstMapInfo map;
  guint8 *base;

  if (gst_mini_object_get_qdata (root, PINNED_QUARK))
    return;
  if (!gst_mini_object_get_qdata (root, SEEN_QUARK)) {
    gst_mini_object_set_qdata (root, SEEN_QUARK, GINT_TO_POINTER (1), NULL);
    return;
  }
  if (!gst_memory_map (mem, &map, GST_MAP_READ))
    return;
  base = map.data - mem->offset;
  if (cf_host_register (base, mem->maxsize, device)) {
    Pin *pin = g_new (Pin, 1);

    pin->base = base;
    pin->device = device;
    gst_mini_object_set_qdata (root, PINNED_QUARK, pin, unpin);
  } else                          /* do not try again */
    gst_mini_object_set_qdata (root, PINNED_QUARK, GINT_TO_POINTER (1), NULL);
  gst_memory_unmap (mem, &map);
}

void
gst_cuda_filter_pin_recycled_memory (GstBuffer * buf, gint device)
{
  guint i, n = gst_buffer_n_memory (buf);

  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);

    if (mem->parent)
      mem = mem->parent;
    if (!gst_memory_is_type (mem, GST_ALLOCATOR_SYSMEM)
        || gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
            PINNED_QUARK))
      continue;
    g_mutex_lock (&pin_lock);
    pin_locked (mem, device);
    g_mutex_unlock (&pin_lock);
  }
}
