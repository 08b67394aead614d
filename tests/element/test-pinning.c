/* Pinning recycled upstream memory from several streaming threads at once
 * (elements behind a tee get the same memory): it is registered once, and
 * unregistered once, when the memory is freed, never while it is alive.
 * Built with the element's cudafilter-pin.c and a fake cf_host_register /
 * cf_host_unregister that behave as cudaHostRegister does (a second
 * registration of the same range fails), so no GPU is needed. */
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include "cf-host-memory.h"
#include "cudafilter-pin.h"

GST_DEBUG_CATEGORY (gst_cuda_filter_debug);

#define THREADS 4
#define ROUNDS 300

static GMutex lock;
static GHashTable *registered;  /* base -> size */
static gpointer alive_base;     /* the memory under test, while alive */
static gint registrations, unregistrations, early;

gboolean
cf_host_register (gpointer data, gsize size, int device)
{
  gboolean ok;

  g_usleep (50);                /* as slow as a real registration is */
  g_mutex_lock (&lock);
  ok = !g_hash_table_contains (registered, data);
  if (ok) {
    g_hash_table_add (registered, data);
    registrations++;
  }
  g_mutex_unlock (&lock);
  return ok;
}

void
cf_host_unregister (gpointer data, int device)
{
  g_mutex_lock (&lock);
  fail_unless (g_hash_table_remove (registered, data),
      "unregistering memory that is not registered");
  unregistrations++;
  if (data == alive_base)
    early++;
  g_mutex_unlock (&lock);
}

typedef struct
{
  GstBuffer *buf;
  gint *go;
} Job;

static gpointer
pin_thread (gpointer data)
{
  Job *job = data;

  while (!g_atomic_int_get (job->go));
  gst_cuda_filter_pin_recycled_memory (job->buf, 0);
  return NULL;
}

GST_START_TEST (test_pin_from_several_threads)
{
  int round, t;

  registered = g_hash_table_new (NULL, NULL);
  for (round = 0; round < ROUNDS; round++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 4096, NULL);
    GstMapInfo map;
    GThread *threads[THREADS];
    gint go = 0;
    Job job = { buf, &go };

    gst_buffer_map (buf, &map, GST_MAP_READ);
    alive_base = map.data - gst_buffer_peek_memory (buf, 0)->offset;
    gst_buffer_unmap (buf, &map);

    /* Seen once: the next sight pins it, from every thread at once. */
    gst_cuda_filter_pin_recycled_memory (buf, 0);
    for (t = 0; t < THREADS; t++)
      threads[t] = g_thread_new ("pin", pin_thread, &job);
    g_atomic_int_set (&go, 1);
    for (t = 0; t < THREADS; t++)
      g_thread_join (threads[t]);

    fail_unless_equals_int (early, 0);
    fail_unless (g_hash_table_contains (registered, alive_base),
        "round %d: the memory is not pinned", round);
    fail_unless_equals_int (registrations, round + 1);
    /* Seen again later: nothing more happens. */
    gst_cuda_filter_pin_recycled_memory (buf, 0);
    fail_unless_equals_int (registrations, round + 1);

    g_mutex_lock (&lock);
    alive_base = NULL;
    g_mutex_unlock (&lock);
    gst_buffer_unref (buf);
    fail_unless_equals_int (unregistrations, round + 1);
  }
  fail_unless_equals_int (g_hash_table_size (registered), 0);
  g_hash_table_unref (registered);
}

GST_END_TEST;

static Suite *
pinning_suite (void)
{
  Suite *s = suite_create ("cudafilter-pinning");
  TCase *tc = tcase_create ("pin");

  GST_DEBUG_CATEGORY_INIT (gst_cuda_filter_debug, "cudafilter", 0, "test");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pin_from_several_threads);
  return s;
}

GST_CHECK_MAIN (pinning);
