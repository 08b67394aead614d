/* cudafilter reliability: a seeded hostile-scenario fuzzer.
 *
 * Drives cudafilter through random sequences of what applications and
 * pipelines do to an element, in episodes of two kinds:
 *
 * - a GstHarness around one element: caps changes (every format the
 *   element's pad template offers, sizes 1..512, odd widths, buffers with
 *   padded strides and plane gaps through a video meta), flushes, EOS,
 *   RECONFIGURE with a changing downstream (system or CUDA memory), state
 *   changes in any order, frames-in-flight changes in READY;
 * - a pipeline: appsrc ! cudafilter ! capsfilter ! tee, with 0 to 3
 *   branches of queue ! cudafilter ! fakesink: caps changes upstream
 *   (between two frames, as a decoder makes them), flushing seeks, EOS,
 *   RECONFIGURE with a changing downstream, state changes;  (appsrc rather
 *   than videotestsrc: the 1.22 videotestsrc corrupts its own line buffers
 *   when renegotiation and state changes race, a bad free that AddressSanitizer
 *   shows inside videotestsrc);
 *
 * and in both, every writable property of every cudafilter set from another
 * thread while frames flow, with valid and invalid values, on backend=cpu
 * or auto (CF_HOSTILE_BACKENDS, e.g. "cuda" on a GPU host).
 *
 * What must hold after every step: no crash; no critical or warning from
 * GLib or GStreamer except the GLib-GObject one for a value this program set
 * out of a property's range on purpose; no ERROR message but those the
 * model of the settings expects (and each of those), and no WARNING
 * but the element's refusal of an invalid property value and the CPU
 * fallback notice (and GstBaseTransform's "not negotiated" when a
 * renegotiation meets a flush: it retries); every frame that entered an element leaves it, once, in
 * order, with its timestamps, except frames a flush (or a state change to
 * READY) discarded while they were in flight and frames QoS dropped (each
 * named by its element's QOS message); no step takes longer than
 * CF_HOSTILE_STEP_TIMEOUT seconds (a hang).  Leaks: run under the leaks
 * tracer (check-leaks.sh), nothing may be alive at exit.
 *
 * A failure prints the seed and the step; the same seed replays the same
 * sequence of actions (thread timing aside):
 *
 *   test-hostile --seed S [--steps N] [--seconds T] [--skip CLASSES]
 *
 * Environment, for meson: CF_HOSTILE_SEED, CF_HOSTILE_STEPS (default 2000),
 * CF_HOSTILE_SECONDS (0 = no limit), CF_HOSTILE_SKIP (action classes left
 * out, comma-separated, e.g. while a known bug in one is being fixed),
 * CF_HOSTILE_BACKENDS (default "cpu,auto"), CF_HOSTILE_STEP_TIMEOUT (20),
 * CF_HOSTILE_VERBOSE=1 (every step on stdout).  Classes: caps, stride
 * (padded strides and plane offsets), props (the property thread), invalid
 * (invalid values among its changes), incomplete (filter=custom without a
 * kernel: kept while playing, refused at start), fif, state, flush, seek,
 * eos, reconfigure, tee (fan-out), deep (formats of more than 8 bits, in
 * the harness episodes, and settings only 8-bit samples take), preroll
 * (sinks that preroll: a state change to PAUSED or PLAYING waits until
 * every branch's sink has a frame), pool (downstream pools with a maximum
 * of 1 to 8 buffers, or 40, or none, of GStreamer's type or a foreign one,
 * as display sinks and hardware encoders offer), query (ALLOCATION and
 * DRAIN queries from upstream with frames in flight: all of them out
 * before the answer), meta (a buffer whose video meta describes more than
 * it holds, in one memory or in one for each plane: an ERROR, never a read
 * past its end; and frames in one memory for each plane that hold what
 * they need: through), segment (a BYTES segment, appsrc's default: no
 * critical), live (pipeline episodes with a live source: appsrc stamps
 * each frame with the running time, the sinks sync and send QoS, qos=true
 * set on the filters or left to them; a frame may be missing only where
 * its element's QOS message names it), context (a CUDA context set on the
 * pipeline or a filter from another thread while it plays; where
 * gstreamer-cuda is built and a context can be made on device 0, else
 * nothing, said at the start), refuse (a start at caps the element
 * refuses, interlaced or a format it does not offer: the frame after them
 * is not-negotiated, no ERROR from the element).
 *
 * Where the element must refuse its settings with an ERROR (at the first
 * caps after a start, or new caps whose depth the settings do not take)
 * and where it must keep the last ones with a warning (changes while
 * playing) is the model's, "The model of the element's settings" below: a
 * missing ERROR fails as a wrong one does. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include "cf-spec.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#endif

#define FRAME_DUR (GST_SECOND / 30)
#define MAX_FILTERS 4
#define BIG_KERNEL 64           /* one more tap than the element takes */

/* ---------------------------------------------------------------------- */
/* Action classes */

enum
{
  A_CAPS, A_STRIDE, A_PROPS, A_INVALID, A_INCOMPLETE, A_FIF, A_STATE,
  A_FLUSH, A_SEEK, A_EOS, A_RECONFIGURE, A_TEE, A_DEEP, A_PREROLL, A_POOL,
  A_QUERY, A_META, A_SEGMENT, A_LIVE, A_CONTEXT, A_REFUSE, A_PUSH, N_CLASSES
};

static const gchar *const class_names[N_CLASSES] = { "caps", "stride",
  "props", "invalid", "incomplete", "fif", "state", "flush", "seek", "eos",
  "reconfigure", "tee", "deep", "preroll", "pool", "query", "meta", "segment",
  "live", "context", "refuse", "push"
};

static gboolean enabled[N_CLASSES];
static guint64 class_count[N_CLASSES];

/* ---------------------------------------------------------------------- */
/* The reproducer line, kept ready for a crash or a hang */

static guint32 seed;
static guint64 step;
static guint episode;
static const gchar *step_what = "setup";
static const gchar *episode_desc = "";
static gchar repro[512];
static volatile gint64 step_started;    /* monotonic us, 0 = none */
static guint step_timeout_s = 20;

static void
update_repro (void)
{
  g_snprintf (repro, sizeof repro, "hostile: seed %u, step %" G_GUINT64_FORMAT
      " (episode %u: %s), action %s\nhostile: replay with: test-hostile "
      "--seed %u --steps %" G_GUINT64_FORMAT "\n", seed, step, episode,
      episode_desc, step_what, seed, step + 1);
}

G_GNUC_NORETURN static void
die (const gchar * fmt, ...)
{
  va_list args;
  gchar *msg;

  va_start (args, fmt);
  msg = g_strdup_vprintf (fmt, args);
  va_end (args);
  update_repro ();
  fflush (stdout);
  fprintf (stderr, "hostile: FAILED: %s\n%s", msg, repro);
  fflush (stderr);
  signal (SIGABRT, SIG_DFL);
  abort ();
}

static void
on_fatal_signal (int sig)
{
  ssize_t r = write (2, repro, strlen (repro));

  (void) r;
  signal (sig, SIG_DFL);
  raise (sig);
}

static gpointer
watchdog (gpointer data)
{
  for (;;) {
    gint64 started = step_started;

    if (started && g_get_monotonic_time () - started >
        (gint64) step_timeout_s * G_USEC_PER_SEC) {
      fprintf (stderr, "hostile: FAILED: a step took more than %u s (hang)\n"
          "%s", step_timeout_s, repro);
      fflush (stderr);
      signal (SIGABRT, SIG_DFL);
      abort ();
    }
    g_usleep (200000);
  }
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* GLib log: criticals and warnings are failures, but for the out-of-range
 * value the property thread sets on purpose (it says so in expect_glib). */

static GPrivate expect_glib;
static gint glib_expected;
static gint invalid_sets;       /* invalid values the property thread set */

static void
log_handler (const gchar * domain, GLogLevelFlags level, const gchar * msg,
    gpointer data)
{
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL |
          G_LOG_LEVEL_WARNING)) {
    /* GLib warns of an out-of-range value (a critical since 2.76). */
    if ((level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL))
        && g_private_get (&expect_glib)
        && g_strcmp0 (domain, "GLib-GObject") == 0
        && strstr (msg, "out of range") != NULL) {
      g_atomic_int_inc (&glib_expected);
      return;
    }
    die ("%s-%s: %s", domain ? domain : "?",
        (level & G_LOG_LEVEL_WARNING) ? "WARNING" : "CRITICAL", msg);
  }
  g_log_default_handler (domain, level, msg, data);
}

/* ---------------------------------------------------------------------- */
/* Frames in == frames out, per element.  Each buffer entering an element is
 * given a sequence number (its offset) and recorded with the flush count
 * at that time; each buffer leaving must be the oldest one still owed, or
 * come after owed ones that a later flush allowed to be dropped. */

typedef struct
{
  guint64 seq;
  GstClockTime pts, duration;
  guint epoch;
  gboolean qos;                 /* dropped by QoS: its QOS message named it */
} InRec;

typedef struct
{
  GMutex lock;
  GArray *ins;                  /* InRec, oldest first */
  guint cursor;                 /* first not yet out nor dropped */
  guint epoch;                  /* flushes seen */
  gboolean resetting;           /* a state change to READY is under way */
  gboolean settled;             /* a frame left since the element started:
                                 * it has settings applied to keep */
  guint64 next_seq;
  guint64 n_in, n_out, n_dropped, n_qos;
  gchar *violation;
  gchar name[16];
} Flow;

static guint64 total_in, total_out, total_dropped, total_qos;

static void
flow_init (Flow * f, const gchar * name)
{
  memset (f, 0, sizeof *f);
  g_mutex_init (&f->lock);
  f->ins = g_array_new (FALSE, FALSE, sizeof (InRec));
  g_strlcpy (f->name, name, sizeof f->name);
}

static void
flow_clear (Flow * f)
{
  total_in += f->n_in;
  total_out += f->n_out;
  total_dropped += f->n_dropped;
  total_qos += f->n_qos;
  g_array_free (f->ins, TRUE);
  g_free (f->violation);
  g_mutex_clear (&f->lock);
}

static void
flow_violation (Flow * f, gchar * what)
{
  if (f->violation == NULL)
    f->violation = what;
  else
    g_free (what);
}

/* A flush or a reset: frames owed so far may be discarded. */
static void
flow_flush (Flow * f)
{
  g_mutex_lock (&f->lock);
  f->epoch++;
  g_mutex_unlock (&f->lock);
}

/* While a pipeline goes down to READY, its elements deactivate one by one
 * from downstream: an element may still take frames in and push them into
 * pads already flushing, and drop others; all of that is discarded. */
static void
flow_resetting (Flow * f, gboolean on)
{
  g_mutex_lock (&f->lock);
  f->resetting = on;
  if (on)
    f->settled = FALSE;
  f->epoch++;
  g_mutex_unlock (&f->lock);
}

static GstPadProbeReturn
probe_in (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Flow *f = data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *buf = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER
        (info));
    InRec r;

    g_mutex_lock (&f->lock);
    r.seq = f->next_seq++;
    r.pts = GST_BUFFER_PTS (buf);
    r.duration = GST_BUFFER_DURATION (buf);
    r.epoch = f->epoch;
    r.qos = FALSE;
    g_array_append_val (f->ins, r);
    f->n_in++;
    g_mutex_unlock (&f->lock);
    GST_BUFFER_OFFSET (buf) = r.seq;
    GST_PAD_PROBE_INFO_DATA (info) = buf;
  } else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) ==
      GST_EVENT_FLUSH_START
      || GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) ==
      GST_EVENT_FLUSH_STOP) {
    /* Both: a buffer that passed the pad's flushing check just before
     * flush-start is counted in after it, and discarded at flush-stop. */
    flow_flush (f);
  }
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
probe_out (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Flow *f = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  guint64 seq = GST_BUFFER_OFFSET (buf);

  g_mutex_lock (&f->lock);
  while (f->cursor < f->ins->len) {
    InRec *r = &g_array_index (f->ins, InRec, f->cursor);

    if (r->seq == seq) {
      if (r->pts != GST_BUFFER_PTS (buf)
          || r->duration != GST_BUFFER_DURATION (buf))
        flow_violation (f, g_strdup_printf ("%s: frame #%" G_GUINT64_FORMAT
                " went in with pts %" GST_TIME_FORMAT " duration %"
                GST_TIME_FORMAT ", came out with %" GST_TIME_FORMAT " %"
                GST_TIME_FORMAT, f->name, seq, GST_TIME_ARGS (r->pts),
                GST_TIME_ARGS (r->duration),
                GST_TIME_ARGS (GST_BUFFER_PTS (buf)),
                GST_TIME_ARGS (GST_BUFFER_DURATION (buf))));
      f->cursor++;
      f->n_out++;
      f->settled = f->settled || !f->resetting;
      g_mutex_unlock (&f->lock);
      return GST_PAD_PROBE_OK;
    }
    if (r->qos) {
      f->cursor++;              /* dropped late, as its QOS message says */
      f->n_qos++;
      continue;
    }
    if (r->epoch >= f->epoch && !f->resetting)
      break;
    f->cursor++;                /* discarded by a later flush */
    f->n_dropped++;
  }
  flow_violation (f, g_strdup_printf ("%s: frame #%" G_GUINT64_FORMAT
          " (pts %" GST_TIME_FORMAT ") came out while frame #%" G_GUINT64_FORMAT
          " was owed and no flush came after it (%" G_GUINT64_FORMAT " in, %"
          G_GUINT64_FORMAT " out, %" G_GUINT64_FORMAT " flushed)", f->name, seq,
          GST_TIME_ARGS (GST_BUFFER_PTS (buf)), f->cursor < f->ins->len ?
          g_array_index (f->ins, InRec, f->cursor).seq : G_MAXUINT64,
          f->n_in, f->n_out, f->n_dropped));
  g_mutex_unlock (&f->lock);
  return GST_PAD_PROBE_OK;
}

/* After EOS: every frame since the last flush is out. */
static void
flow_check_complete (Flow * f)
{
  guint i, owed = 0;

  g_mutex_lock (&f->lock);
  for (i = f->cursor; i < f->ins->len; i++)
    if (g_array_index (f->ins, InRec, i).epoch >= f->epoch
        && !g_array_index (f->ins, InRec, i).qos)
      owed++;
  if (owed)
    flow_violation (f, g_strdup_printf ("%s: %u frame(s) still owed after "
            "EOS (%" G_GUINT64_FORMAT " in, %" G_GUINT64_FORMAT " out, %"
            G_GUINT64_FORMAT " flushed)", f->name, owed, f->n_in, f->n_out,
            f->n_dropped));
  g_mutex_unlock (&f->lock);
}

/* Fails on a violation; forgets what is settled. */
static void
flow_check (Flow * f)
{
  g_mutex_lock (&f->lock);
  if (f->violation) {
    gchar *v = g_strdup (f->violation);

    g_mutex_unlock (&f->lock);
    die ("frames in != frames out: %s", v);
  }
  if (f->cursor > 256) {
    g_array_remove_range (f->ins, 0, f->cursor);
    f->cursor = 0;
  }
  g_mutex_unlock (&f->lock);
}

/* A frame counts as out once the element after `e` took it: where that
 * one can refuse it (a capsfilter whose caps changed answers
 * not-negotiated), `out` is that element, whose source pad it then leaves
 * by (e pushes a refused frame again, after negotiating new caps). */
static void
flow_attach (Flow * f, GstElement * e, GstElement * out)
{
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstPad *src = gst_element_get_static_pad (out, "src");

  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
      probe_in, f, NULL);
  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, probe_out, f, NULL);
  gst_object_unref (sink);
  gst_object_unref (src);
}

/* GstBaseTransform drops an input that QoS says would come too late, and
 * posts a QOS message with its timestamp from the streaming thread, in the
 * chain of that input (the last one in): that frame, and no other, may be
 * missing. */
static void
flow_qos_dropped (Flow * f, GstClockTime pts)
{
  guint i;

  g_mutex_lock (&f->lock);
  for (i = f->ins->len; i > f->cursor; i--) {
    InRec *r = &g_array_index (f->ins, InRec, i - 1);

    if (r->pts == pts && !r->qos) {
      r->qos = TRUE;
      break;
    }
  }
  if (i == f->cursor)
    flow_violation (f, g_strdup_printf ("%s: a QOS message for a frame of "
            "pts %" GST_TIME_FORMAT " not held", f->name,
            GST_TIME_ARGS (pts)));
  g_mutex_unlock (&f->lock);
}

/* ---------------------------------------------------------------------- */
/* Bus: no ERROR, and WARNINGs only of the kinds expected */

static guint64 refusals, fallbacks, renegotiations;
/* live sources restarted after GStreamer's pause race (A_EOS) */
static guint64 live_restarts;
/* Held by a half-made property change, and by state changes. */
static GMutex half_made_change;
/* Held by the property thread for each change; the main thread takes it to
 * keep the settings still (a start it expects to be refused). */
static GRecMutex prop_lock;
/* Half-made changes made on a playing element, and the element's warnings
 * about them: one at most for each. */
static gint half_made_changes;
static guint64 incomplete_warnings;
/* An ERROR the model expects: from this element, of this kind. */
static struct
{
  GstElement *from;
  const gchar *prefix;
  GQuark domain;                /* 0: GST_LIBRARY_ERROR_SETTINGS */
  gint code;
  guint seen;
} expected_error;

static void
check_bus (GstBus * bus)
{
  GstMessage *msg;

  /* Everything else is dropped, so that the queue stays short. */
  while ((msg = gst_bus_pop (bus)) != NULL) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gboolean ours = GST_IS_ELEMENT (GST_MESSAGE_SRC (msg))
        && g_str_has_prefix (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), "cf");

    if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR
        && GST_MESSAGE_TYPE (msg) != GST_MESSAGE_WARNING) {
      gst_message_unref (msg);
      continue;
    }

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &err, &dbg);
      if (expected_error.from != NULL
          && GST_MESSAGE_SRC (msg) == GST_OBJECT (expected_error.from)
          && (expected_error.domain ? g_error_matches (err,
                  expected_error.domain, expected_error.code) :
              g_error_matches (err, GST_LIBRARY_ERROR,
                  GST_LIBRARY_ERROR_SETTINGS))
          && g_str_has_prefix (err->message, expected_error.prefix)) {
        if (expected_error.seen++ && g_getenv ("CF_HOSTILE_VERBOSE"))
          printf ("again: %s\n", GST_STR_NULL (dbg));
        g_error_free (err);
        g_free (dbg);
        gst_message_unref (msg);
        continue;
      }
      die ("ERROR from %s: %s (%s)", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
          err->message, GST_STR_NULL (dbg));
    }
    gst_message_parse_warning (msg, &err, &dbg);
    /* The element's word on settings it refused or adjusted: a value out
     * of range, a half-made change or one the stream's depth cannot take
     * (filtering goes on as before), a border value clamped. */
    if (ours && g_error_matches (err, GST_LIBRARY_ERROR,
            GST_LIBRARY_ERROR_SETTINGS)) {
      refusals++;
      incomplete_warnings += g_str_has_prefix (err->message,
          "filter=custom needs the 'kernel' property (e.g.");
    }
    else if (ours && g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_NOT_FOUND))
      fallbacks++;
    /* GstBaseTransform's when a renegotiation meets a flush (the caps
     * event cannot go downstream yet); it tries again, and a real failure
     * ends in an ERROR. */
    else if (g_error_matches (err, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT)
        && strcmp (err->message, "not negotiated") == 0)
      renegotiations++;
    else
      die ("WARNING from %s: %s (%s)", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
          err->message, GST_STR_NULL (dbg));
    g_error_free (err);
    g_free (dbg);
    gst_message_unref (msg);
  }
}

/* ---------------------------------------------------------------------- */
/* Formats and sizes */

static GPtrArray *formats;      /* what the element's sink template offers */
static GPtrArray *cuda_formats; /* of those, what it offers in CUDA memory */

static void
add_formats (GPtrArray * list, const GValue * v)
{
  if (G_VALUE_HOLDS_STRING (v)) {
    const gchar *s = g_value_get_string (v);
    guint i;

    for (i = 0; i < list->len; i++)
      if (strcmp (list->pdata[i], s) == 0)
        return;
    g_ptr_array_add (list, g_strdup (s));
  } else if (GST_VALUE_HOLDS_LIST (v)) {
    guint i;

    for (i = 0; i < gst_value_list_get_size (v); i++)
      add_formats (list, gst_value_list_get_value (v, i));
  }
}

static void
collect_formats (void)
{
  GstElementFactory *f = gst_element_factory_find ("cudafilter");
  const GList *l;
  guint i;

  if (f == NULL)
    die ("cudafilter not found: is GST_PLUGIN_PATH set?");
  formats = g_ptr_array_new_with_free_func (g_free);
  cuda_formats = g_ptr_array_new_with_free_func (g_free);
  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *caps;

    if (t->direction != GST_PAD_SINK)
      continue;
    caps = gst_static_caps_get (&t->static_caps);
    for (i = 0; i < gst_caps_get_size (caps); i++) {
      GstCapsFeatures *feat = gst_caps_get_features (caps, i);
      const GValue *v = gst_structure_get_value (gst_caps_get_structure (caps,
              i), "format");

      add_formats (formats, v);
      if (feat && gst_caps_features_contains (feat, "memory:CUDAMemory"))
        add_formats (cuda_formats, v);
    }
    gst_caps_unref (caps);
  }
  gst_object_unref (f);
  if (formats->len == 0)
    die ("no formats found in the element's pad template");
}

static gboolean
in_list (GPtrArray * list, const gchar * s)
{
  guint i;

  for (i = 0; i < list->len; i++)
    if (strcmp (list->pdata[i], s) == 0)
      return TRUE;
  return FALSE;
}

/* A format of `from`; only one the element offers in CUDA memory when
 * downstream asks for CUDA memory (others cannot negotiate then). */
static const gchar *
random_format (GRand * r, GPtrArray * from, gboolean cuda, gboolean deep)
{
  for (;;) {
    const gchar *f = from->pdata[g_rand_int_range (r, 0, from->len)];
    const GstVideoFormatInfo *fi =
        gst_video_format_get_info (gst_video_format_from_string (f));

    if ((!cuda || in_list (cuda_formats, f))
        && ((deep && enabled[A_DEEP]) || GST_VIDEO_FORMAT_INFO_DEPTH (fi,
                0) <= 8)) {
      class_count[A_DEEP] += GST_VIDEO_FORMAT_INFO_DEPTH (fi, 0) > 8;
      return f;
    }
  }
}

/* Mostly small, sometimes up to 512; odd sizes as often as even. */
static gint
random_size (GRand * r)
{
  guint k = g_rand_int_range (r, 0, 10);

  if (k < 7)
    return g_rand_int_range (r, 1, 49);
  if (k < 9)
    return g_rand_int_range (r, 1, 161);
  return g_rand_int_range (r, 1, 513);
}

/* ---------------------------------------------------------------------- */
/* The property thread */

typedef struct
{
  GstElement *filters[MAX_FILTERS];
  Flow *flows;                  /* the filters' */
  guint n_filters;
  GRand *rand;
  gboolean on;                  /* main thread only */
  gint budget;                  /* atomic: changes still to make */
  gint stop;                    /* atomic */
  guint64 changes;
  const gchar *const *backends;
} PropThread;

static const gchar *const valid_kernels[] = { "0 -1 0; -1 5 -1; 0 -1 0",
  "1 2 1; 2 4 2; 1 2 1", "1,1,1,1,1", "1; 2; 1", "0.5 0.25; 0.25 0.125",
  "1 1 1; 1 -8 1; 1 1 1", "-1 0 1", "1"
};

static const gchar *const invalid_kernels[] = { "1 2; 3", "abc", "1,,2",
  "nan", "1e999", "; ;", "1 2 3;", "inf -inf"
};

static gchar *
big_kernel (guint n)
{
  GString *s = g_string_new (NULL);
  guint i, j;

  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      g_string_append (s, j ? " 1" : "1");
    if (i + 1 < n)
      g_string_append (s, "; ");
  }
  return g_string_free (s, FALSE);
}

static gboolean
allowed_backend (PropThread * t, const gchar * nick)
{
  guint i;

  for (i = 0; t->backends[i]; i++)
    if (strcmp (t->backends[i], nick) == 0)
      return TRUE;
  return FALSE;
}

/* A value for pspec: valid, or (when allowed) invalid; *out_of_range says
 * GLib will refuse it with a warning. */
static gboolean
pick_value (PropThread * t, GParamSpec * p, GValue * v, gboolean invalid,
    gboolean * out_of_range)
{
  GRand *r = t->rand;

  *out_of_range = FALSE;
  g_value_init (v, p->value_type);
  if (G_IS_PARAM_SPEC_ENUM (p)) {
    GEnumClass *ec = G_PARAM_SPEC_ENUM (p)->enum_class;
    GEnumValue *ev;

    if (invalid) {
      g_value_set_enum (v, ec->maximum + 1 + g_rand_int_range (r, 0, 100));
      *out_of_range = TRUE;
      return TRUE;
    }
    ev = &ec->values[g_rand_int_range (r, 0, ec->n_values)];
    if (strcmp (p->name, "backend") == 0 && !allowed_backend (t,
            ev->value_nick))
      return FALSE;
    g_value_set_enum (v, ev->value);
    return TRUE;
  }
  if (G_IS_PARAM_SPEC_BOOLEAN (p)) {
    g_value_set_boolean (v, g_rand_boolean (r));
    return TRUE;
  }
  if (G_IS_PARAM_SPEC_INT (p)) {
    GParamSpecInt *ip = G_PARAM_SPEC_INT (p);

    if (invalid && (ip->minimum > G_MININT || ip->maximum < G_MAXINT)) {
      *out_of_range = TRUE;
      g_value_set_int (v, ip->minimum > G_MININT ? ip->minimum - 1 :
          ip->maximum + 1);
      return TRUE;
    }
    if (strcmp (p->name, "cuda-device-id") == 0)
      g_value_set_int (v, g_rand_int_range (r, -1, 1));
    else if (strcmp (p->name, "kernel-size") == 0)
      /* Odd sizes and, as user mistakes, even ones; large ones rarely. */
      g_value_set_int (v, g_rand_int_range (r, 0, 10) ? g_rand_int_range (r,
              0, 10) : g_rand_int_range (r, ip->minimum, ip->maximum + 1));
    else {
      /* Drawn once: CLAMP evaluates its argument up to three times. */
      gint64 drawn = (gint64) ip->minimum + g_rand_int_range (r, 0, 40);

      g_value_set_int (v, (gint) MIN (drawn, ip->maximum));
    }
    return TRUE;
  }
  if (G_IS_PARAM_SPEC_UINT (p)) {
    GParamSpecUInt *up = G_PARAM_SPEC_UINT (p);

    if (invalid && (up->minimum > 0 || up->maximum < G_MAXUINT)) {
      *out_of_range = TRUE;
      g_value_set_uint (v, up->maximum < G_MAXUINT ? up->maximum + 1 +
          g_rand_int_range (r, 0, 3) : up->minimum - 1);
      return TRUE;
    }
    {
      /* Drawn once, as above. */
      guint drawn = up->minimum + (guint) g_rand_int_range (r, 0,
          up->maximum - up->minimum < 300 ? up->maximum - up->minimum + 1 :
          300);

      g_value_set_uint (v, MIN (drawn, up->maximum));
    }
    return TRUE;
  }
  if (G_IS_PARAM_SPEC_DOUBLE (p)) {
    GParamSpecDouble *dp = G_PARAM_SPEC_DOUBLE (p);
    static const gdouble specials[] = { 0, 1, -1, 0.5, 2, 255, -255, 1e6,
      1e300, -1e300, 1e-300
    };

    if (invalid) {
      if (dp->minimum > -G_MAXDOUBLE && g_rand_boolean (r)) {
        *out_of_range = TRUE;
        g_value_set_double (v, dp->minimum - 1);
      } else {
        gdouble odd[] = { NAN, INFINITY, -INFINITY };
        guint k = g_rand_int_range (r, 0, 3);

        /* GLib refuses these for every double property. */
        *out_of_range = TRUE;
        g_value_set_double (v, odd[k]);
      }
      return TRUE;
    }
    /* Settings only 8-bit samples take: the Gaussian's taps for 16-bit
     * samples are too many from a sigma of about 7.8 up. */
    if (enabled[A_DEEP] && g_str_has_prefix (p->name, "sigma")
        && g_rand_int_range (r, 0, 3) == 0)
      g_value_set_double (v, g_rand_double_range (r, 7.9, 10.0));
    else if (dp->maximum - dp->minimum < 2000)
      g_value_set_double (v, g_rand_int_range (r, 0, 4) ?
          dp->minimum + g_rand_double_range (r, 0, MIN (8.0,
                  dp->maximum - dp->minimum)) : g_rand_double_range (r,
              dp->minimum, dp->maximum));
    else {
      /* Within the range: sigma-color starts at -1. */
      gdouble drawn = g_rand_int_range (r, 0, 2) ?
          g_rand_double_range (r, -10, 10) :
          specials[g_rand_int_range (r, 0, G_N_ELEMENTS (specials))];

      g_value_set_double (v, CLAMP (drawn, dp->minimum, dp->maximum));
    }
    return TRUE;
  }
  if (G_IS_PARAM_SPEC_STRING (p)) {
    if (invalid) {
      if (g_rand_int_range (r, 0, 8) == 0)
        g_value_take_string (v, big_kernel (BIG_KERNEL));
      else
        g_value_set_string (v, invalid_kernels[g_rand_int_range (r, 0,
                    G_N_ELEMENTS (invalid_kernels))]);
      return TRUE;
    }
    g_value_set_string (v, valid_kernels[g_rand_int_range (r, 0,
                G_N_ELEMENTS (valid_kernels))]);
    return TRUE;
  }
  return FALSE;
}

/* Whether filter `i` has settings applied since it started, so that a
 * half-made change keeps them (else it is refused at start). */
static gboolean
settled (PropThread * t, guint i)
{
  Flow *f = &t->flows[i];
  gboolean on;

  g_mutex_lock (&f->lock);
  on = f->settled;
  g_mutex_unlock (&f->lock);
  return on;
}

static void
set_one_property (PropThread * t, guint which)
{
  GstElement *e = t->filters[which];
  GParamSpec **props;
  guint n, i;
  GParamSpec *p;
  GValue v = G_VALUE_INIT;
  gboolean invalid, oor;

  props = g_object_class_list_properties (G_OBJECT_GET_CLASS (e), &n);
  for (i = 0; i < 8; i++) {
    p = props[g_rand_int_range (t->rand, 0, n)];
    if ((p->flags & G_PARAM_WRITABLE) && !(p->flags & G_PARAM_CONSTRUCT_ONLY)
        && strcmp (p->name, "name") != 0 && strcmp (p->name, "parent") != 0)
      break;
    p = NULL;
  }
  if (p == NULL) {
    g_free (props);
    return;
  }

  /* A half-made change, as an application switching to a custom matrix
   * makes it: filter=custom without a kernel while frames flow, the kernel
   * a moment later.  Filtering goes on with the last complete settings
   * (a warning at most, no ERROR), on an element that has applied some
   * since it started: state changes wait for the change to complete, so
   * it stays so.  (At start the element refuses it: harness_refused_start.) */
  if (enabled[A_INCOMPLETE] && strcmp (p->name, "kernel") == 0
      && g_rand_int_range (t->rand, 0, 6) == 0) {
    gchar *kernel;

    g_mutex_lock (&half_made_change);
    if (!settled (t, which)) {
      g_mutex_unlock (&half_made_change);
      g_free (props);
      return;
    }
    g_atomic_int_inc (&half_made_changes);
    g_object_set (e, "kernel", g_rand_boolean (t->rand) ? NULL : "  ", NULL);
    if (g_rand_boolean (t->rand))
      gst_util_set_object_arg (G_OBJECT (e), "filter", "custom");
    g_usleep (g_rand_int_range (t->rand, 0, 3000));
    g_object_set (e, "kernel", "1 2 1; 2 4 2; 1 2 1", NULL);
    g_object_get (e, "kernel", &kernel, NULL);
    /* Refused, with the scale, divisor or offset set: those of a plain
     * sum take it.  The change ends complete: no later filter=custom and
     * no restart may meet a missing kernel (a pipeline's start has no
     * model). */
    if (kernel == NULL || *g_strstrip (kernel) == '\0') {
      g_free (kernel);
      g_object_set (e, "scale", 1.0, "divisor", 0.0, "offset", 0.0, "kernel",
          "1 2 1; 2 4 2; 1 2 1", NULL);
      g_object_get (e, "kernel", &kernel, NULL);
      if (kernel == NULL)
        die ("%s refused the kernel 1 2 1; 2 4 2; 1 2 1 with scale 1",
            GST_OBJECT_NAME (e));
    }
    g_free (kernel);
    g_mutex_unlock (&half_made_change);
    t->changes++;
    g_free (props);
    return;
  }

  invalid = enabled[A_INVALID] && g_rand_int_range (t->rand, 0, 4) == 0;
  if (pick_value (t, p, &v, invalid, &oor)) {
    if (invalid)
      g_atomic_int_inc (&invalid_sets);
    if (oor)
      g_private_set (&expect_glib, GINT_TO_POINTER (1));
    g_object_set_property (G_OBJECT (e), p->name, &v);
    g_private_set (&expect_glib, NULL);
    t->changes++;
  }
  g_value_unset (&v);
  g_free (props);
}

/* Sets the properties the main thread asks for (`budget`, so that a seed
 * sets the same values in the same order), while frames flow. */
static gpointer
prop_thread (gpointer data)
{
  PropThread *t = data;

  while (!g_atomic_int_get (&t->stop)) {
    if (g_atomic_int_get (&t->budget) <= 0) {
      g_usleep (200);
      continue;
    }
    g_rec_mutex_lock (&prop_lock);
    set_one_property (t, g_rand_int_range (t->rand, 0, t->n_filters));
    g_rec_mutex_unlock (&prop_lock);
    g_atomic_int_add (&t->budget, -1);
    g_usleep (g_rand_int_range (t->rand, 0, 500));
  }
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* The pipelines' source: appsrc, fed from its streaming thread, in time
 * format and seekable; caps change between two frames. */

typedef struct
{
  GMutex lock;
  GstVideoInfo info;
  gboolean caps_pending;
  GstClockTime next_pts;
  guint64 n;
  gboolean live;                /* appsrc stamps the frames (do-timestamp) */
} Feed;

static void
feed_need_data (GstAppSrc * src, guint length, gpointer data)
{
  Feed *f = data;
  GstBuffer *buf;

  g_mutex_lock (&f->lock);
  if (f->caps_pending) {
    GstCaps *caps = gst_video_info_to_caps (&f->info);

    gst_app_src_set_caps (src, caps);
    gst_caps_unref (caps);
    f->caps_pending = FALSE;
  }
  buf = gst_buffer_new_allocate (NULL, f->info.size, NULL);
  gst_buffer_memset (buf, 0, 16 + (f->n++ * 37) % 220, f->info.size);
  GST_BUFFER_PTS (buf) = f->live ? GST_CLOCK_TIME_NONE : f->next_pts;
  GST_BUFFER_DURATION (buf) = FRAME_DUR;
  f->next_pts += FRAME_DUR;
  g_mutex_unlock (&f->lock);
  gst_app_src_push_buffer (src, buf);
}

static gboolean
feed_seek_data (GstAppSrc * src, guint64 offset, gpointer data)
{
  Feed *f = data;

  g_mutex_lock (&f->lock);
  f->next_pts = offset;
  g_mutex_unlock (&f->lock);
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* An episode */

typedef struct
{
  GRand *rand;
  gboolean harness;
  const gchar *backend;
  GstBus *bus;
  GstElement *filters[MAX_FILTERS];
  Flow flows[MAX_FILTERS];
  guint n_filters;
  PropThread props;
  GThread *prop_thread;

  /* harness */
  GstHarness *h;
  GstVideoInfo info;            /* with the strides the buffers carry */
  gboolean padded;
  gboolean need_events;         /* stream-start, caps, segment to resend */
  gboolean eos;                 /* EOS sent: a flush must come first */
  gboolean cuda_out;            /* downstream takes CUDA memory only */
  gboolean cuda_formats_only;   /* pipelines: formats offered in CUDA memory */
  const gchar *format;          /* what upstream sends now */
  GstState state;
  guint64 frame;

  /* pipeline */
  GstElement *pipe, *appsrc, *out_caps;
  Feed feed;
  gboolean live;                /* a live source, QoS, sinks that sync */

  /* pool: what the sinks' ALLOCATION answers offer (atomic) */
  gint pool_on, pool_min, pool_max, pool_foreign;
  gboolean pool_probed;         /* harness: the probe is on its sink pad */
  GstPad *pool_pads[MAX_FILTERS];       /* pipeline: sinks after a filter */
  guint n_pool_pads;
} Episode;

/* A pool of a type the element does not know, as a sink's own. */
typedef GstVideoBufferPool HostilePool;
typedef GstVideoBufferPoolClass HostilePoolClass;
static GType hostile_pool_get_type (void);
G_DEFINE_TYPE (HostilePool, hostile_pool, GST_TYPE_VIDEO_BUFFER_POOL);

static void
hostile_pool_class_init (HostilePoolClass * klass)
{
}

static void
hostile_pool_init (HostilePool * self)
{
}

/* Answers an ALLOCATION query (system memory) with the pool the episode
 * offers now: `pool_max` buffers at most, `pool_min` of them kept by the
 * sink (as many as it may hold: no more, or it deadlocks any element). */
static GstPadProbeReturn
offer_pool (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Episode *ep = data;
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstBufferPool *pool;
  GstStructure *config;
  GstCaps *caps;
  GstVideoInfo vinfo;
  guint min, max;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION
      || !g_atomic_int_get (&ep->pool_on))
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&vinfo, caps)
      || !gst_caps_features_is_equal (gst_caps_get_features (caps, 0),
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return GST_PAD_PROBE_OK;
  min = g_atomic_int_get (&ep->pool_min);
  max = g_atomic_int_get (&ep->pool_max);
  pool = g_atomic_int_get (&ep->pool_foreign) ?
      g_object_new (hostile_pool_get_type (), NULL) :
      gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, vinfo.size, min, max);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_set_config (pool, config);
  gst_query_add_allocation_pool (query, pool, vinfo.size, min, max);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (pool);
  return GST_PAD_PROBE_HANDLED;
}

/* The next pool the sinks offer: a maximum of 1 to 8 buffers, 40, or
 * none, of GStreamer's type or a foreign one. */
static void
pick_pool (Episode * ep, guint min)
{
  static const gint maxes[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 40 };

  gint max = maxes[g_rand_int_range (ep->rand, 0, G_N_ELEMENTS (maxes))];

  /* A sink keeps no more than its pool holds. */
  g_atomic_int_set (&ep->pool_min, max ? MIN ((gint) min, max) : (gint) min);
  g_atomic_int_set (&ep->pool_max, max);
  g_atomic_int_set (&ep->pool_foreign, g_rand_boolean (ep->rand));
  g_atomic_int_set (&ep->pool_on, TRUE);
}

/* QOS messages of the filters, as they are posted (the streaming thread,
 * before the next input): the frames QoS dropped. */
static GstBusSyncReply
qos_sync (GstBus * bus, GstMessage * msg, gpointer data)
{
  Episode *ep = data;
  GstClockTime timestamp;
  guint i;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_QOS)
    return GST_BUS_PASS;
  gst_message_parse_qos (msg, NULL, NULL, NULL, &timestamp, NULL);
  for (i = 0; i < ep->n_filters; i++)
    if (GST_MESSAGE_SRC (msg) == GST_OBJECT (ep->filters[i]))
      flow_qos_dropped (&ep->flows[i], timestamp);
  return GST_BUS_PASS;
}

/* ---------------------------------------------------------------------- */
/* A CUDA context for the `context` class, made once; none where
 * gstreamer-cuda is not built or no context can be made (the class then
 * does nothing, and says why at the start). */

static GstContext *cuda_gst_context;
static const gchar *no_cuda_context = "not made yet";

static void
make_cuda_context (void)
{
#ifdef HAVE_GST_CUDA
  GstCudaContext *c;

  if (!gst_cuda_load_library ()) {
    no_cuda_context = "the CUDA driver library does not load";
    return;
  }
  c = gst_cuda_context_new (0);
  if (c == NULL) {
    no_cuda_context = "no CUDA context can be made on device 0";
    return;
  }
  cuda_gst_context = gst_context_new_cuda_context (c);
  gst_object_unref (c);
  no_cuda_context = NULL;
#else
  no_cuda_context = "built without gstreamer-cuda";
#endif
}

static gpointer
set_context_thread (gpointer data)
{
  gst_element_set_context (data, cuda_gst_context);
  return NULL;
}

/* An application's NEED_CONTEXT handler answering late: the context set
 * on the pipeline (GstBin passes it to every child) or on one filter,
 * from another thread, while frames flow.  The elements go on filtering
 * in their own context: no error, no frame lost. */
static void
pipeline_set_context (Episode * ep)
{
  GstElement *to = g_rand_boolean (ep->rand) ? ep->pipe :
      ep->filters[g_rand_int_range (ep->rand, 0, ep->n_filters)];

  if (cuda_gst_context == NULL)
    return;
  g_thread_join (g_thread_new ("context", set_context_thread, to));
}

static void
new_filter (Episode * ep, GstElement * e, GstElement * out)
{
  gchar name[16];

  g_snprintf (name, sizeof name, "cf%u", ep->n_filters);
  flow_init (&ep->flows[ep->n_filters], name);
  flow_attach (&ep->flows[ep->n_filters], e, out);
  ep->filters[ep->n_filters++] = e;
}

static void
base_properties (Episode * ep, GstElement * e)
{
  static const gchar *const start_filters[] = { "gaussian", "box", "sobel",
    "scharr", "laplacian", "sharpen", "custom", "sobel-x"
  };

  /* The kernel first, so that filter=custom has one. */
  g_object_set (e, "kernel", valid_kernels[g_rand_int_range (ep->rand, 0,
              G_N_ELEMENTS (valid_kernels))], "frames-in-flight",
      g_rand_int_range (ep->rand, 0, 7), NULL);
  gst_util_set_object_arg (G_OBJECT (e), "backend", ep->backend);
  gst_util_set_object_arg (G_OBJECT (e), "filter",
      start_filters[g_rand_int_range (ep->rand, 0,
              G_N_ELEMENTS (start_filters))]);
}

/* Caps of `format` w x h; with padded strides (and gaps between planes)
 * when `pad`, as the buffers' video meta will say. */
static GstCaps *
make_info (Episode * ep, GstVideoInfo * info, const gchar * format, gint w,
    gint hgt, gboolean pad)
{
  guint p;
  gsize offset = 0;

  gst_video_info_set_format (info, gst_video_format_from_string (format), w,
      hgt);
  info->fps_n = 30;
  info->fps_d = 1;
  if (pad) {
    for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
      guint rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, p, hgt);

      info->stride[p] += 4 * g_rand_int_range (ep->rand, 1, 17);
      offset += 4 * g_rand_int_range (ep->rand, 0, 9);
      info->offset[p] = offset;
      offset += (gsize) info->stride[p] * rows;
    }
    info->size = offset + 4 * g_rand_int_range (ep->rand, 0, 5);
  }
  return gst_video_info_to_caps (info);
}

/* ---------------------------------------------------------------------- */
/* The model of the element's settings (harness episodes).
 *
 * Properties are checked at every depth when they are set
 * (cf_params_check), so settings a depth does not take are refused then;
 * the model below still allows for them.  The element builds its filter
 * when a frame or caps need it:
 * with no settings applied yet (the first caps after a start) it refuses
 * settings that are incomplete (filter=custom without a kernel) or that
 * the stream's depth does not take, with an ERROR; once it has applied
 * some, a change the depth does not take, or a half-made one, keeps the
 * last settings (a WARNING), and only new caps whose depth the settings
 * it has do not take are an ERROR.  The engine says which settings a depth
 * takes; the property thread is held off (prop_lock) from where the model
 * reads the settings to where the element has built its filter, so the
 * settings it predicts from are the ones the element sees. */

static gint
format_depth (const GstVideoInfo * info)
{
  return GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, 0);
}

static gint
enum_by_nick (GstElement * e, const gchar * prop, gint value,
    const gchar * const *nicks, guint n)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      prop);
  GEnumValue *ev = g_enum_get_value (G_PARAM_SPEC_ENUM (ps)->enum_class,
      value);
  guint i;

  for (i = 0; ev && i < n; i++)
    if (strcmp (nicks[i], ev->value_nick) == 0)
      return i;
  die ("%s=%d: no such %s in the engine's table", prop, value, prop);
  return 0;
}

/* Why the element must refuse its settings for `depth`-bit samples with no
 * settings applied (the prefix of its ERROR), or NULL. */
static const gchar *
settings_refused (GstElement * e, gint depth)
{
  const gchar *filter_nicks[CF_N_FILTERS], *border_nicks[CF_N_BORDERS];
  gint filter, border, shape;
  guint border_value, i;
  gchar *kernel;
  CfParams p;
  CfSpec *spec;
  GError *err = NULL;

  for (i = 0; i < CF_N_FILTERS; i++)
    filter_nicks[i] = cf_filters[i].nick;
  for (i = 0; i < CF_N_BORDERS; i++)
    border_nicks[i] = cf_borders[i].nick;
  cf_params_init (&p);
  g_object_get (e, "filter", &filter, "border", &border, "border-value",
      &border_value, "sigma", &p.sigma, "sigma-y", &p.sigma_y, "kernel-size",
      &p.kernel_size, "kernel", &kernel, "divisor", &p.divisor, "offset",
      &p.offset, "scale", &p.scale, "amount", &p.amount, "shape", &shape,
      "iterations", &p.iterations, "sigma-color", &p.sigma_color, NULL);
  p.shape = (CfShape) shape;
  p.filter = cf_filters[enum_by_nick (e, "filter", filter, filter_nicks,
          CF_N_FILTERS)].filter;
  p.border = cf_borders[enum_by_nick (e, "border", border, border_nicks,
          CF_N_BORDERS)].border;
  p.border_value = (int) border_value;
  p.kernel = kernel;
  if (p.filter == CF_FILTER_CUSTOM && (kernel == NULL || *g_strstrip (kernel)
          == '\0')) {
    g_free (kernel);
    return "filter=custom needs the 'kernel' property:";
  }
  spec = cf_spec_new_for_depth (&p, depth, &err);
  g_free (kernel);
  g_clear_error (&err);
  if (spec == NULL)
    return "Invalid filter settings for";
  cf_spec_free (spec);
  return NULL;
}

/* Settings every depth takes, after a refusal: kernel-size first, as an
 * even size (which morphology takes) would refuse box. */
static void
settle_settings (GstElement * e)
{
  g_object_set (e, "kernel-size", 3, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "filter", "box");
}

static guint64 refused_starts, refused_caps, deep_kept;

static GstBuffer *harness_frame (Episode * ep);
static void set_state (Episode * ep, GstElement * e, GstState s);

/* Sends what makes the element build its filter for `depth`-bit samples
 * (`with_applied`: from settings it has applied at the depth of the
 * frames so far), with the property thread held off, and checks that an
 * ERROR comes exactly when the settings must be refused.  After a refusal
 * the element restarts with settings any depth takes.  FALSE when it was
 * refused. */
static gboolean
expect_settings (Episode * ep, gint depth, gboolean with_applied,
    void (*send) (Episode *, gpointer), gpointer data)
{
  GstElement *e = ep->h->element;
  const gchar *refused;

  g_rec_mutex_lock (&prop_lock);
  check_bus (ep->bus);
  if (with_applied) {
    /* A frame first, so that the settings applied are the ones read here
     * (a change the frames' depth does not take is replaced by settings
     * it does: what the element kept instead is not known here). */
    if (settings_refused (e, format_depth (&ep->info)) != NULL) {
      settle_settings (e);
      deep_kept++;
    }
    if (gst_harness_push (ep->h, harness_frame (ep)) != GST_FLOW_OK) {
      check_bus (ep->bus);
      die ("push before new caps failed");
    }
  }
  refused = settings_refused (e, depth);
  expected_error.from = refused ? e : NULL;
  expected_error.prefix = refused;
  expected_error.seen = 0;
  send (ep, data);
  check_bus (ep->bus);
  expected_error.from = NULL;
  if (refused && expected_error.seen == 0)
    die ("%s took settings it must refuse for %d-bit samples (%s...)",
        GST_OBJECT_NAME (e), depth, refused);
  if (refused) {
    if (with_applied)
      refused_caps++;
    else
      refused_starts++;
    class_count[A_INCOMPLETE] += g_str_has_prefix (refused, "filter=custom");
    settle_settings (e);
    set_state (ep, e, GST_STATE_READY);
    ep->state = GST_STATE_READY;
    ep->need_events = TRUE;
    ep->eos = FALSE;
  }
  g_rec_mutex_unlock (&prop_lock);
  return refused == NULL;
}

static GstBuffer *
harness_frame (Episode * ep)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, ep->info.size, NULL);

  gst_buffer_memset (buf, 0, 16 + (ep->frame * 37) % 220, ep->info.size);
  if (ep->padded)
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&ep->info), ep->info.width, ep->info.height,
        GST_VIDEO_INFO_N_PLANES (&ep->info), ep->info.offset,
        ep->info.stride);
  GST_BUFFER_PTS (buf) = ep->frame * FRAME_DUR;
  GST_BUFFER_DURATION (buf) = FRAME_DUR;
  ep->frame++;
  return buf;
}

static void
harness_drop_output (Episode * ep)
{
  GstBuffer *b;
  GstEvent *e;

  while ((b = gst_harness_try_pull (ep->h)) != NULL)
    gst_buffer_unref (b);
  while ((e = gst_harness_try_pull_event (ep->h)) != NULL)
    gst_event_unref (e);
  while ((e = gst_harness_try_pull_upstream_event (ep->h)) != NULL)
    gst_event_unref (e);
}

static void
harness_segment (Episode * ep)
{
  GstSegment seg;

  gst_segment_init (&seg, GST_FORMAT_TIME);
  gst_harness_push_event (ep->h, gst_event_new_segment (&seg));
}

static void
send_caps (Episode * ep, gpointer caps)
{
  gst_harness_push_event (ep->h, gst_event_new_caps (caps));
}

/* The frames so far keep ep->info until the caps are sent. */
static void
harness_new_caps (Episode * ep)
{
  const gchar *format = random_format (ep->rand, formats, ep->cuda_out,
      TRUE);
  gboolean pad = enabled[A_STRIDE] && g_rand_boolean (ep->rand);
  GstVideoInfo info;
  GstCaps *caps = make_info (ep, &info, format, random_size (ep->rand),
      random_size (ep->rand), pad);

  class_count[A_STRIDE] += pad;
  expect_settings (ep, format_depth (&info), TRUE, send_caps, caps);
  /* Also after a refusal: the restart sends these caps. */
  ep->info = info;
  ep->padded = pad;
  gst_caps_unref (caps);
}

static void
send_src_caps (Episode * ep, gpointer caps)
{
  gst_harness_set_src_caps (ep->h, gst_caps_ref (caps));
}

static void
send_events (Episode * ep, gpointer unused)
{
  GstCaps *caps;

  gst_harness_push_event (ep->h, gst_event_new_stream_start ("hostile"));
  caps = gst_video_info_to_caps (&ep->info);
  gst_harness_push_event (ep->h, gst_event_new_caps (caps));
  gst_caps_unref (caps);
  harness_segment (ep);
}

/* The first caps after a start, with no settings applied yet; a refused
 * start starts again with settings any depth takes. */
static void
harness_events (Episode * ep)
{
  guint tries = 0;

  while (!expect_settings (ep, format_depth (&ep->info), FALSE, send_events,
          NULL)) {
    if (++tries == 2)
      die ("%s refused box 3x3 at start", GST_OBJECT_NAME (ep->h->element));
    set_state (ep, ep->h->element, GST_STATE_PLAYING);
    ep->state = GST_STATE_PLAYING;
  }
  ep->need_events = FALSE;
}

static void
harness_flush (Episode * ep)
{
  gst_harness_push_event (ep->h, gst_event_new_flush_start ());
  gst_harness_push_event (ep->h, gst_event_new_flush_stop (g_rand_boolean
          (ep->rand)));
  harness_segment (ep);
  ep->eos = FALSE;
}

/* What each element holds, for a state change that does not complete. */
static void
dump_pipeline (Episode * ep)
{
  GstIterator *it = gst_bin_iterate_elements (GST_BIN (ep->pipe));
  GValue v = G_VALUE_INIT;
  guint i;

  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *el = g_value_get_object (&v);
    GstState cur, pending;

    gst_element_get_state (el, &cur, &pending, 0);
    fprintf (stderr, "hostile:   %s: %s (pending %s)", GST_OBJECT_NAME (el),
        gst_element_state_get_name (cur), gst_element_state_get_name (pending));
    if (g_object_class_find_property (G_OBJECT_GET_CLASS (el),
            "current-level-buffers")
        && g_object_class_find_property (G_OBJECT_GET_CLASS (el),
            "max-size-buffers")) {
      guint level, max;

      g_object_get (el, "current-level-buffers", &level, "max-size-buffers",
          &max, NULL);
      fprintf (stderr, ", %u/%u buffers", level, max);
    }
    if (g_object_class_find_property (G_OBJECT_GET_CLASS (el),
            "frames-in-flight")) {
      guint fif;

      g_object_get (el, "frames-in-flight", &fif, NULL);
      fprintf (stderr, ", frames-in-flight=%u", fif);
    }
    fprintf (stderr, "\n");
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  for (i = 0; i < ep->n_filters; i++)
    fprintf (stderr, "hostile:   %s: %" G_GUINT64_FORMAT " in, %"
        G_GUINT64_FORMAT " out\n", ep->flows[i].name, ep->flows[i].n_in,
        ep->flows[i].n_out);
}

/* Starts `e` towards `s` with filter=custom and no kernel: the state
 * change must fail with the element's ERROR; then settings any depth
 * takes. */
static void
expect_refused_start (Episode * ep, GstElement * e, GstState s)
{
  GstStateChangeReturn ret;

  check_bus (ep->bus);
  expected_error.from = e;
  expected_error.prefix = "filter=custom needs the 'kernel' property:";
  expected_error.seen = 0;
  ret = gst_element_set_state (e, s);
  check_bus (ep->bus);
  expected_error.from = NULL;
  if (ret != GST_STATE_CHANGE_FAILURE || expected_error.seen == 0)
    die ("%s started with filter=custom and no kernel (%s, %u error(s))",
        GST_OBJECT_NAME (e), gst_element_state_change_return_get_name (ret),
        expected_error.seen);
  refused_starts++;
  class_count[A_INCOMPLETE]++;
  settle_settings (e);
}

/* A harness element that starts (READY or below to PAUSED or above) with
 * filter=custom and no kernel (left by a refused start, then filter=custom
 * from the property thread) must fail the state change with its ERROR,
 * as at harness_refused_start; then it is left in READY with settings any
 * depth takes.  TRUE when it was so. */
static gboolean
start_refused (Episode * ep, GstElement * e, GstState s)
{
  if (!ep->harness || e != ep->h->element || s < GST_STATE_PAUSED
      || GST_STATE (e) > GST_STATE_READY
      || g_strcmp0 (settings_refused (e, 8),
          "filter=custom needs the 'kernel' property:") != 0)
    return FALSE;
  expect_refused_start (ep, e, s);
  gst_element_set_state (e, GST_STATE_READY);
  return TRUE;
}

static void
set_state (Episode * ep, GstElement * e, GstState s)
{
  GstStateChangeReturn ret;
  guint i;

  /* Going to READY discards the frames in flight, from the moment the
   * first element (downstream) deactivates its pads until the last. */
  for (i = 0; s <= GST_STATE_READY && i < ep->n_filters; i++)
    flow_resetting (&ep->flows[i], TRUE);
  /* Not inside a half-made change: starting with one is an error.  The
   * property thread is held off (prop_lock) from the model's look at the
   * settings to the end of the state change. */
  g_rec_mutex_lock (&prop_lock);
  g_mutex_lock (&half_made_change);
  if (start_refused (ep, e, s)) {
    g_mutex_unlock (&half_made_change);
    g_rec_mutex_unlock (&prop_lock);
    set_state (ep, e, s);       /* again, with settings any depth takes */
    return;
  }
  ret = gst_element_set_state (e, s);
  g_mutex_unlock (&half_made_change);
  g_rec_mutex_unlock (&prop_lock);

  if (ret == GST_STATE_CHANGE_ASYNC)
    ret = gst_element_get_state (e, NULL, NULL, 10 * GST_SECOND);
  if (ret == GST_STATE_CHANGE_FAILURE || ret == GST_STATE_CHANGE_ASYNC) {
    if (GST_IS_BIN (e))
      dump_pipeline (ep);
    check_bus (ep->bus);
    die ("state change of %s to %s %s", GST_OBJECT_NAME (e),
        gst_element_state_get_name (s), ret == GST_STATE_CHANGE_ASYNC ?
        "did not complete within 10 s" : "failed");
  }
  if (s <= GST_STATE_READY) {
    for (i = 0; i < ep->n_filters; i++)
      flow_resetting (&ep->flows[i], FALSE);
    if (ep->appsrc) {
      g_mutex_lock (&ep->feed.lock);
      ep->feed.caps_pending = TRUE;
      g_mutex_unlock (&ep->feed.lock);
    }
  }
}

static void
harness_push (Episode * ep, guint n)
{
  guint i;

  if (ep->state < GST_STATE_PAUSED) {
    set_state (ep, ep->h->element, GST_STATE_PLAYING);
    ep->state = GST_STATE_PLAYING;
  }
  if (ep->need_events)
    harness_events (ep);
  if (ep->eos)
    harness_flush (ep);
  for (i = 0; i < n; i++) {
    GstFlowReturn ret = gst_harness_push (ep->h, harness_frame (ep));

    if (ret != GST_FLOW_OK) {
      check_bus (ep->bus);
      die ("push returned %s", gst_flow_get_name (ret));
    }
  }
}

/* A start with a half-made change (filter=custom, no kernel): settings
 * that cannot work whatever the caps fail the state change, with the
 * element's ERROR (as filesrc without a location does); the element then
 * starts again with settings any depth takes. */
static void
harness_refused_start (Episode * ep)
{
  GstElement *e = ep->h->element;

  g_rec_mutex_lock (&prop_lock);
  set_state (ep, e, GST_STATE_READY);
  /* kernel-size 0 first: clearing a morphology filter's structuring
   * element is refused when its kernel-size cannot stand alone, and
   * filter=custom when the kernel left is no usable custom kernel. */
  g_object_set (e, "kernel-size", 0, NULL);
  g_object_set (e, "kernel", g_rand_boolean (ep->rand) ? NULL : "  ", NULL);
  gst_util_set_object_arg (G_OBJECT (e), "filter", "custom");
  expect_refused_start (ep, e, g_rand_boolean (ep->rand) ?
      GST_STATE_PAUSED : GST_STATE_PLAYING);
  set_state (ep, e, GST_STATE_READY);
  set_state (ep, e, GST_STATE_PLAYING);
  ep->state = GST_STATE_PLAYING;
  ep->eos = FALSE;
  harness_events (ep);
  g_rec_mutex_unlock (&prop_lock);
}

/* The bytes plane `p` of `info` needs from its first byte to the end of
 * its last row, and those of its whole rows (`full`). */
static gsize
plane_needs (const GstVideoInfo * info, guint p, gsize * full)
{
  gsize row = 0;
  guint c, rows = 0;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    if (GST_VIDEO_INFO_COMP_PLANE (info, c) != p)
      continue;
    row = MAX (row, (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, c) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, c));
    rows = MAX (rows, (guint) GST_VIDEO_INFO_COMP_HEIGHT (info, c));
  }
  *full = (gsize) GST_VIDEO_INFO_PLANE_STRIDE (info, p) * rows;
  return rows ? (gsize) GST_VIDEO_INFO_PLANE_STRIDE (info, p) * (rows - 1) +
      row : 0;
}

/* A frame in several memories, one for each plane (and a second one after
 * a single plane), its video meta giving each plane's offset; plane
 * `short_plane` (none if -1) in a memory half the size it needs: a plane
 * is read from the memory it starts in. */
static GstBuffer *
multi_memory_frame (Episode * ep, gint short_plane)
{
  GstBuffer *buf = gst_buffer_new ();
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 }, offset = 0, full, need;
  guint p, n = GST_VIDEO_INFO_N_PLANES (&ep->info);

  for (p = 0; p < n + (n == 1); p++) {
    gsize size;
    GstMemory *mem;

    if (p < n) {
      need = plane_needs (&ep->info, p, &full);
      size = (gint) p == short_plane ? need / 2 : full;
      offsets[p] = offset;
    } else {
      size = 4 * g_rand_int_range (ep->rand, 1, 5);
    }
    mem = gst_allocator_alloc (NULL, MAX (size, 1), NULL);
    gst_buffer_append_memory (buf, mem);
    offset += MAX (size, 1);
  }
  gst_buffer_memset (buf, 0, 16 + (ep->frame * 37) % 220, offset);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&ep->info), ep->info.width, ep->info.height,
      n, offsets, ep->info.stride);
  return buf;
}

/* A plane whose memory, half what it needs, holds less than its last
 * row (one of 2 bytes or more), or -1. */
static gint
plane_to_shorten (Episode * ep)
{
  guint p, n = GST_VIDEO_INFO_N_PLANES (&ep->info);
  guint first = g_rand_int_range (ep->rand, 0, n);
  gsize full;

  for (p = 0; p < n; p++)
    if (plane_needs (&ep->info, (first + p) % n, &full) >= 2)
      return (first + p) % n;
  return -1;
}

/* A buffer half the size its video meta describes (another element's
 * mistake), in one memory or in one for each plane with one of them too
 * small: refused with an ERROR, nothing read past its end; the frame
 * never leaves.  The frames before it leave first (a drain), among them,
 * at times, a frame in several memories that hold what it needs. */
static void
harness_lying_meta (Episode * ep)
{
  GstQuery *q;
  GstBuffer *buf;
  GstFlowReturn ret;
  gsize size, first_plane;
  gint short_plane;

  harness_push (ep, g_rand_int_range (ep->rand, 0, 4));
  if (g_rand_boolean (ep->rand)) {
    buf = multi_memory_frame (ep, -1);
    GST_BUFFER_PTS (buf) = ep->frame * FRAME_DUR;
    GST_BUFFER_DURATION (buf) = FRAME_DUR;
    ep->frame++;
    ret = gst_harness_push (ep->h, buf);
    if (ret != GST_FLOW_OK) {
      check_bus (ep->bus);
      die ("a frame in one memory for each plane was refused (%s)",
          gst_flow_get_name (ret));
    }
  }
  q = gst_query_new_drain ();
  gst_pad_peer_query (ep->h->srcpad, q);
  gst_query_unref (q);
  short_plane = g_rand_boolean (ep->rand) ? plane_to_shorten (ep) : -1;
  if (short_plane >= 0) {
    buf = multi_memory_frame (ep, short_plane);
    size = gst_buffer_get_size (buf);
  } else {
    /* Smaller than the first plane needs, too: half the size of a padded
     * frame of one row may still hold that row (the element is right to
     * take it). */
    first_plane = ep->info.offset[0] + (gsize) ep->info.stride[0] *
        (GST_VIDEO_INFO_COMP_HEIGHT (&ep->info, 0) - 1) +
        GST_VIDEO_INFO_COMP_WIDTH (&ep->info, 0) *
        GST_VIDEO_INFO_COMP_PSTRIDE (&ep->info, 0);
    size = MAX (MIN (ep->info.size / 2, first_plane - 1), 1);
    buf = gst_buffer_new_allocate (NULL, size, NULL);
    gst_buffer_memset (buf, 0, 99, size);
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&ep->info), ep->info.width, ep->info.height,
        GST_VIDEO_INFO_N_PLANES (&ep->info), ep->info.offset,
        ep->info.stride);
  }
  GST_BUFFER_PTS (buf) = ep->frame * FRAME_DUR;
  GST_BUFFER_DURATION (buf) = FRAME_DUR;
  ep->frame++;

  check_bus (ep->bus);
  expected_error.from = ep->h->element;
  expected_error.prefix = "The input buffer is smaller than";
  expected_error.domain = GST_STREAM_ERROR;
  expected_error.code = GST_STREAM_ERROR_FORMAT;
  expected_error.seen = 0;
  ret = gst_harness_push (ep->h, buf);
  check_bus (ep->bus);
  expected_error.from = NULL;
  expected_error.domain = 0;
  if (ret != GST_FLOW_ERROR || expected_error.seen == 0)
    die ("a buffer of %" G_GSIZE_FORMAT " bytes (plane %d short) whose meta "
        "says %s %dx%d went through (%s, %u error(s))", size, short_plane,
        GST_VIDEO_INFO_NAME (&ep->info), ep->info.width, ep->info.height,
        gst_flow_get_name (ret), expected_error.seen);
  /* That frame went in and never comes out. */
  flow_flush (&ep->flows[0]);
}

/* A start at caps the element refuses: interlaced (its templates say
 * progressive) or a raw format they do not offer.  The caps event fails,
 * the frame after it is not-negotiated (the source's to post an ERROR, as
 * a pipeline's would), the element posts none; the frame never leaves.
 * It then starts at caps it takes. */
static void
harness_refused_caps (Episode * ep)
{
  GstCaps *caps = gst_video_info_to_caps (&ep->info);
  const gchar *format = NULL;
  GstFlowReturn ret;
  GstPad *sink;
  guint tries;

  for (tries = 0; format == NULL && tries < 50 && g_rand_boolean (ep->rand);
      tries++) {
    format = gst_video_format_to_string (g_rand_int_range (ep->rand,
            GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_I420 + 100));
    if (format != NULL && in_list (formats, format))
      format = NULL;
  }
  if (format)
    gst_caps_set_simple (caps, "format", G_TYPE_STRING, format, NULL);
  else
    gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING,
        g_rand_boolean (ep->rand) ? "interleaved" : "mixed", NULL);

  set_state (ep, ep->h->element, GST_STATE_READY);
  set_state (ep, ep->h->element, GST_STATE_PLAYING);
  ep->state = GST_STATE_PLAYING;
  ep->eos = FALSE;
  ep->need_events = TRUE;
  check_bus (ep->bus);
  gst_harness_push_event (ep->h, gst_event_new_stream_start ("hostile"));
  /* A sticky event's push says TRUE whatever happened downstream. */
  gst_harness_push_event (ep->h, gst_event_new_caps (caps));
  sink = gst_element_get_static_pad (ep->h->element, "sink");
  if (gst_pad_has_current_caps (sink))
    die ("%s took caps it must refuse: %s", GST_OBJECT_NAME (ep->h->element),
        gst_caps_to_string (caps));
  gst_object_unref (sink);
  gst_caps_unref (caps);
  ret = gst_harness_push (ep->h, harness_frame (ep));
  check_bus (ep->bus);
  if (ret != GST_FLOW_NOT_NEGOTIATED)
    die ("a frame after refused caps: %s, not not-negotiated",
        gst_flow_get_name (ret));
  flow_flush (&ep->flows[0]);
  harness_push (ep, g_rand_int_range (ep->rand, 1, 5));
}

static void
harness_step (Episode * ep, guint cls)
{
  GRand *r = ep->rand;

  switch (cls) {
    case A_CAPS:
      if (ep->state < GST_STATE_PAUSED || ep->need_events || ep->eos)
        harness_push (ep, 0);
      harness_new_caps (ep);
      break;
    case A_FLUSH:
      harness_flush (ep);
      break;
    case A_EOS:
      harness_push (ep, 0);
      gst_harness_push_event (ep->h, gst_event_new_eos ());
      flow_check_complete (&ep->flows[0]);
      ep->eos = TRUE;
      break;
    case A_RECONFIGURE:{
      const gchar *fmt = GST_VIDEO_INFO_NAME (&ep->info);
      gboolean cuda = in_list (cuda_formats, fmt) && g_rand_boolean (r);
      GstCaps *any = gst_caps_from_string (cuda ?
          "video/x-raw(memory:CUDAMemory)" : g_rand_boolean (r) ?
          "video/x-raw" : "video/x-raw(ANY)");

      ep->cuda_out = cuda;
      gst_harness_set_sink_caps (ep->h, any);
      gst_harness_push_upstream_event (ep->h, gst_event_new_reconfigure ());
      harness_push (ep, g_rand_int_range (r, 0, 4));
      break;
    }
    case A_STATE:{
      GstState s = g_rand_int_range (r, GST_STATE_NULL, GST_STATE_PLAYING + 1);

      if (enabled[A_INCOMPLETE] && s >= GST_STATE_PAUSED
          && g_rand_int_range (r, 0, 4) == 0)
        harness_refused_start (ep);
      set_state (ep, ep->h->element, s);
      if (s <= GST_STATE_READY)
        ep->need_events = TRUE;
      ep->eos = ep->eos && s > GST_STATE_READY;
      ep->state = s;
      break;
    }
    case A_FIF:{
      gboolean bad = enabled[A_INVALID] && g_rand_int_range (r, 0, 5) == 0;

      set_state (ep, ep->h->element, GST_STATE_READY);
      ep->state = GST_STATE_READY;
      ep->need_events = TRUE;
      ep->eos = FALSE;
      g_private_set (&expect_glib, GINT_TO_POINTER (bad));
      g_object_set (ep->h->element, "frames-in-flight", bad ? 17 +
          g_rand_int_range (r, 0, 1000) : g_rand_int_range (r, 0, 17), NULL);
      g_private_set (&expect_glib, NULL);
      harness_push (ep, g_rand_int_range (r, 0, 4));
      break;
    }
    case A_POOL:
      /* The harness keeps a step's frames (16 at most) until it ends. */
      pick_pool (ep, 16);
      if (!ep->pool_probed)
        gst_pad_add_probe (ep->h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
            offer_pool, ep, NULL);
      ep->pool_probed = TRUE;
      gst_harness_push_upstream_event (ep->h, gst_event_new_reconfigure ());
      harness_push (ep, g_rand_int_range (r, 1, 9));
      break;
    case A_QUERY:{
      GstQuery *q;

      /* A decoder taking its buffers back: every frame out first. */
      harness_push (ep, g_rand_int_range (r, 1, 6));
      if (g_rand_boolean (r)) {
        GstCaps *caps = gst_video_info_to_caps (&ep->info);

        q = gst_query_new_allocation (caps, TRUE);
        gst_caps_unref (caps);
      } else {
        q = gst_query_new_drain ();
      }
      gst_pad_peer_query (ep->h->srcpad, q);
      gst_query_unref (q);
      flow_check_complete (&ep->flows[0]);
      break;
    }
    case A_META:
      harness_lying_meta (ep);
      break;
    case A_REFUSE:
      harness_refused_caps (ep);
      break;
    case A_SEGMENT:{
      GstSegment seg;

      harness_push (ep, 0);
      gst_segment_init (&seg, GST_FORMAT_BYTES);
      gst_harness_push_event (ep->h, gst_event_new_segment (&seg));
      harness_push (ep, g_rand_int_range (r, 1, 5));
      harness_segment (ep);
      break;
    }
    default:
      harness_push (ep, g_rand_int_range (r, 1, 9));
      break;
  }
  harness_drop_output (ep);
}

/* ---------------------------------------------------------------------- */

static void
feed_new_caps (Episode * ep)
{
  Feed *f = &ep->feed;

  g_mutex_lock (&f->lock);
  /* 8-bit only: settings that deeper samples refuse are an ERROR at a
   * start or a caps change, which only the harness episodes, with their
   * model of the settings, can tell from a bug. */
  ep->format = random_format (ep->rand, formats, ep->cuda_formats_only,
      FALSE);
  gst_video_info_set_format (&f->info, gst_video_format_from_string
      (ep->format), random_size (ep->rand), random_size (ep->rand));
  f->info.fps_n = 30;
  f->info.fps_d = 1;
  f->caps_pending = TRUE;
  g_mutex_unlock (&f->lock);
}

/* With a live source: qos=true set by the application, or left to the
 * element (which turns it on for live sources). */
static void
live_properties (Episode * ep, GstElement * e)
{
  if (ep->live && g_rand_boolean (ep->rand))
    g_object_set (e, "qos", TRUE, NULL);
}

static void
pipeline_build (Episode * ep)
{
  GstAppSrcCallbacks cb = { feed_need_data, NULL, feed_seek_data };
  GstElement *tee, *e;
  guint i, branches = enabled[A_TEE] ? g_rand_int_range (ep->rand, 0, 4) : 0;

  ep->cuda_formats_only = cuda_formats->len > 0 && g_rand_boolean (ep->rand);
  /* A live source (a camera): appsrc stamps each frame with the running
   * time it is made at, the sinks sync on it and send QoS upstream. */
  ep->live = enabled[A_LIVE] && g_rand_int_range (ep->rand, 0, 3) == 0;
  class_count[A_LIVE] += ep->live;
  ep->pipe = gst_pipeline_new (NULL);
  ep->bus = gst_element_get_bus (ep->pipe);
  gst_bus_set_sync_handler (ep->bus, qos_sync, ep, NULL);
  g_mutex_init (&ep->feed.lock);
  ep->feed.live = ep->live;
  feed_new_caps (ep);
  ep->appsrc = gst_element_factory_make ("appsrc", NULL);
  g_object_set (ep->appsrc, "format", GST_FORMAT_TIME, "stream-type",
      GST_APP_STREAM_TYPE_SEEKABLE, "max-buffers", (guint64) 2, "is-live",
      ep->live, "do-timestamp", ep->live, NULL);
  gst_app_src_set_callbacks (GST_APP_SRC (ep->appsrc), &cb, &ep->feed, NULL);
  e = gst_element_factory_make ("cudafilter", "cf0");
  base_properties (ep, e);
  live_properties (ep, e);
  ep->out_caps = gst_element_factory_make ("capsfilter", NULL);
  tee = gst_element_factory_make ("tee", NULL);
  gst_bin_add_many (GST_BIN (ep->pipe), ep->appsrc, e, ep->out_caps, tee,
      NULL);
  gst_element_link_many (ep->appsrc, e, ep->out_caps, tee, NULL);
  class_count[A_TEE] += branches > 0;
  new_filter (ep, e, ep->out_caps);
  for (i = 0; i < MAX (branches, 1); i++) {
    GstElement *q = gst_element_factory_make ("queue", NULL);
    GstElement *sink = gst_element_factory_make ("fakesink", NULL);
    gchar name[16];

    g_object_set (sink, "sync", ep->live, "async", enabled[A_PREROLL], "qos",
        ep->live, "max-lateness", ep->live ? (gint64) 20 * GST_MSECOND :
        (gint64) - 1, NULL);
    class_count[A_PREROLL] += i == 0 && enabled[A_PREROLL];
    /* Room for every frame a branch holds in flight (16 at most): a
     * smaller queue stalls the preroll of a tee, as with any element that
     * holds frames (an encoder with look-ahead, say). */
    g_object_set (q, "max-size-buffers", g_rand_int_range (ep->rand, 17, 24),
        "max-size-time", (guint64) 0, "max-size-bytes", 0, NULL);
    gst_bin_add_many (GST_BIN (ep->pipe), q, sink, NULL);
    if (branches == 0) {
      gst_element_link_many (tee, q, sink, NULL);
      break;
    }
    g_snprintf (name, sizeof name, "cf%u", ep->n_filters);
    e = gst_element_factory_make ("cudafilter", name);
    base_properties (ep, e);
    live_properties (ep, e);
    gst_bin_add (GST_BIN (ep->pipe), e);
    gst_element_link_many (tee, q, e, sink, NULL);
    new_filter (ep, e, e);
    if (enabled[A_POOL]) {
      GstPad *pad = gst_element_get_static_pad (sink, "sink");

      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
          offer_pool, ep, NULL);
      ep->pool_pads[ep->n_pool_pads++] = pad;
    }
  }
}

/* PLAYING with nothing pending: a flushing seek leaves the pipeline
 * prerolling again, and an EOS sent then deadlocks in GStreamer whatever the
 * elements (basesrc's send_event waits, under the pipeline's state lock, for
 * the streaming thread, which waits in the sink's preroll for the state
 * change that lock holds up), so the steps that send one wait first. */
static gboolean
pipeline_playing (Episode * ep)
{
  GstState cur = GST_STATE_NULL, pending = GST_STATE_NULL;

  return gst_element_get_state (ep->pipe, &cur, &pending, 0) ==
      GST_STATE_CHANGE_SUCCESS && cur == GST_STATE_PLAYING
      && pending == GST_STATE_VOID_PENDING;
}

static void
pipeline_step (Episode * ep, guint cls)
{
  GRand *r = ep->rand;
  guint i;

  switch (cls) {
    case A_CAPS:
      feed_new_caps (ep);
      break;
    case A_POOL:
      /* fakesink keeps its last frame (and a preroll one): 2, said as 8,
       * so that a pool kept has room to spare (the tight fits are
       * test-bounded-pools' and the harness episodes'). */
      pick_pool (ep, 8);
      for (i = 0; i < ep->n_pool_pads; i++)
        gst_pad_push_event (ep->pool_pads[i], gst_event_new_reconfigure ());
      break;
    case A_SEEK:{
      /* One seek, or a storm of them a few ms apart (a user dragging a
       * slider); not into a live source. */
      guint n = ep->live ? 0 : g_rand_int_range (r, 0, 4) ? 1 :
          g_rand_int_range (r, 5, 40);

      if (!pipeline_playing (ep))
        set_state (ep, ep->pipe, GST_STATE_PLAYING);
      for (i = 0; i < n; i++) {
        gst_element_seek_simple (ep->pipe, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | (g_rand_boolean (r) ?
                GST_SEEK_FLAG_KEY_UNIT : GST_SEEK_FLAG_ACCURATE),
            g_rand_int_range (r, 0, 5000) * GST_MSECOND);
        g_usleep (g_rand_int_range (r, 1000, 5000));
      }
      break;
    }
    case A_EOS:{
      GstMessage *msg;
      gint64 restart_at = g_get_monotonic_time () + G_TIME_SPAN_SECOND;
      gint64 deadline = restart_at + 9 * G_TIME_SPAN_SECOND;
      gboolean restarted = FALSE;

      if (!pipeline_playing (ep))
        set_state (ep, ep->pipe, GST_STATE_PLAYING);
      /* The source's own call, not an EOS event sent to the pipeline:
       * appsrc refuses EOS while it is flushing (from a live source's
       * pause until its streaming thread runs again, a moment after the
       * pipeline reports PLAYING), and as an event the refusal is lost,
       * send_event still says TRUE (seed 1770667488 on GStreamer 1.28).
       * The call says FLUSHING: an application retries, so does this. */
      while (gst_app_src_end_of_stream (GST_APP_SRC (ep->appsrc)) ==
          GST_FLOW_FLUSHING) {
        if (g_get_monotonic_time () > deadline)
          die ("appsrc refused EOS (flushing) for 10 s");
        if (!restarted && ep->live && g_get_monotonic_time () > restart_at) {
          /* GStreamer >= 1.24: a live basesrc resumed while its thread
           * was still leaving create() after the pause stays flushing
           * with its task stopped, for good (docs/reliability.md, seed
           * 375098952 on 1.28); what an application can do: restart. */
          restarted = TRUE;
          live_restarts++;
          if (g_getenv ("CF_HOSTILE_VERBOSE"))
            printf ("  live source stuck flushing: READY and PLAYING\n");
          set_state (ep, ep->pipe, GST_STATE_READY);
          set_state (ep, ep->pipe, GST_STATE_PLAYING);
        }
        g_usleep (2000);
      }
      msg = gst_bus_timed_pop_filtered (ep->bus, 10 * GST_SECOND,
          GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
      if (msg == NULL)
        die ("no EOS within 10 s of sending it");
      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
        gst_bus_post (ep->bus, msg);
        check_bus (ep->bus);
      }
      gst_message_unref (msg);
      for (i = 0; i < ep->n_filters; i++)
        flow_check_complete (&ep->flows[i]);
      /* Going on after EOS: back to READY and play again. */
      set_state (ep, ep->pipe, GST_STATE_READY);
      set_state (ep, ep->pipe, GST_STATE_PLAYING);
      break;
    }
    case A_RECONFIGURE:{
      static const gchar *const downstream[] = { "video/x-raw",
        "video/x-raw(memory:CUDAMemory)", "video/x-raw(ANY)"
      };
      const gchar *want = downstream[g_rand_int_range (r, 0,
              G_N_ELEMENTS (downstream))];

      /* Frames of earlier caps may still be on their way downstream:
       * CUDA memory only in episodes whose every format has it. */
      if (want == downstream[1] && !ep->cuda_formats_only)
        want = downstream[0];
      ep->cuda_out = want == downstream[1];
      GstCaps *caps = gst_caps_from_string (want);
      GstPad *pad = gst_element_get_static_pad (ep->filters[0], "src");

      if (g_getenv ("CF_HOSTILE_VERBOSE"))
        printf ("  downstream of cf0: %s\n", want);

      g_object_set (ep->out_caps, "caps", caps, NULL);
      gst_caps_unref (caps);
      gst_pad_send_event (pad, gst_event_new_reconfigure ());
      gst_object_unref (pad);
      g_usleep (g_rand_int_range (r, 0, 5000));
      break;
    }
    case A_STATE:{
      GstState to = g_rand_int_range (r, GST_STATE_NULL, GST_STATE_PLAYING + 1);

      if (g_getenv ("CF_HOSTILE_VERBOSE"))
        printf ("  to %s\n", gst_element_state_get_name (to));
      set_state (ep, ep->pipe, to);
      break;
    }
    case A_CONTEXT:
      if (!pipeline_playing (ep))
        set_state (ep, ep->pipe, GST_STATE_PLAYING);
      pipeline_set_context (ep);
      g_usleep (g_rand_int_range (r, 500, 5000));
      break;
    case A_FIF:
      set_state (ep, ep->pipe, GST_STATE_READY);
      for (i = 0; i < ep->n_filters; i++)
        g_object_set (ep->filters[i], "frames-in-flight",
            g_rand_int_range (r, 0, 17), NULL);
      set_state (ep, ep->pipe, GST_STATE_PLAYING);
      break;
    default:
      if (!pipeline_playing (ep))
        set_state (ep, ep->pipe, GST_STATE_PLAYING);
      g_usleep (g_rand_int_range (r, 500, 10000));
      break;
  }
}

/* ---------------------------------------------------------------------- */

static guint
pick_class (Episode * ep)
{
  static const guint harness_classes[] = { A_CAPS, A_FLUSH, A_EOS,
    A_RECONFIGURE, A_STATE, A_FIF, A_PROPS, A_POOL, A_QUERY, A_META,
    A_SEGMENT, A_REFUSE
  };
  static const guint pipeline_classes[] = { A_CAPS, A_SEEK, A_EOS,
    A_RECONFIGURE, A_STATE, A_FIF, A_PROPS, A_POOL, A_CONTEXT
  };
  const guint *classes = ep->harness ? harness_classes : pipeline_classes;
  guint n = ep->harness ? G_N_ELEMENTS (harness_classes) :
      G_N_ELEMENTS (pipeline_classes);

  /* Half the steps let frames flow; the rest is one of the classes. */
  if (g_rand_boolean (ep->rand)) {
    guint c = classes[g_rand_int_range (ep->rand, 0, n)];

    if (enabled[c])
      return c;
  }
  return A_PUSH;
}

static void
episode_run (Episode * ep, const gchar * const *backends, guint n_backends,
    guint64 last_step, gint64 deadline)
{
  guint len = g_rand_int_range (ep->rand, 10, 60), i, s;
  gchar *desc;

  ep->backend = backends[g_rand_int_range (ep->rand, 0, n_backends)];
  ep->harness = g_rand_boolean (ep->rand);
  if (ep->harness) {
    GstElement *e = gst_element_factory_make ("cudafilter", "cf0");
    GstCaps *caps;

    base_properties (ep, e);
    ep->bus = gst_bus_new ();
    gst_element_set_bus (e, ep->bus);
    ep->h = gst_harness_new_with_element (e, "sink", "src");
    gst_object_unref (e);
    new_filter (ep, e, e);
    caps = make_info (ep, &ep->info, random_format (ep->rand, formats, FALSE,
            TRUE), random_size (ep->rand),
        random_size (ep->rand), FALSE);
    ep->state = GST_STATE_PLAYING;
    expect_settings (ep, format_depth (&ep->info), FALSE, send_src_caps,
        caps);
    gst_caps_unref (caps);
  } else {
    pipeline_build (ep);
  }
  desc = g_strdup_printf ("%s, backend=%s, %u element(s)%s", ep->harness ?
      "harness" : ep->live ? "live pipeline" : "pipeline", ep->backend,
      ep->n_filters, ep->live ? ", QoS" : "");
  episode_desc = desc;

  ep->props.rand = g_rand_new_with_seed (g_rand_int (ep->rand));
  ep->props.backends = backends;
  ep->props.n_filters = ep->n_filters;
  memcpy (ep->props.filters, ep->filters, sizeof ep->filters);
  ep->props.flows = ep->flows;
  if (enabled[A_PROPS])
    ep->prop_thread = g_thread_new ("props", prop_thread, &ep->props);

  for (i = 0; i < len && step < last_step
      && (deadline == 0 || g_get_monotonic_time () < deadline); i++) {
    guint cls = pick_class (ep);

    step_what = class_names[cls];
    update_repro ();
    if (g_getenv ("CF_HOSTILE_VERBOSE")) {
      printf ("%.3f step %" G_GUINT64_FORMAT ": %s (%s)\n",
          g_get_monotonic_time () / 1e6, step, step_what, desc);
      fflush (stdout);
    }
    step_started = g_get_monotonic_time ();

    if (ep->props.on)
      g_atomic_int_add (&ep->props.budget, g_rand_int_range (ep->rand, 1, 9));
    if (cls == A_PROPS)
      ep->props.on = !ep->props.on;
    else if (ep->harness)
      harness_step (ep, cls);
    else
      pipeline_step (ep, cls);
    /* The step's property changes are all made before it ends. */
    while (ep->prop_thread && g_atomic_int_get (&ep->props.budget) > 0)
      g_usleep (200);

    check_bus (ep->bus);
    for (s = 0; s < ep->n_filters; s++)
      flow_check (&ep->flows[s]);
    step_started = 0;
    class_count[cls]++;
    step++;
  }

  step_what = "teardown";
  update_repro ();
  step_started = g_get_monotonic_time ();
  if (ep->prop_thread) {
    g_atomic_int_set (&ep->props.stop, 1);
    g_thread_join (ep->prop_thread);
  }
  g_rand_free (ep->props.rand);
  if (ep->harness) {
    /* Whatever is still in flight comes out at EOS. */
    if (ep->state >= GST_STATE_PAUSED && !ep->need_events && !ep->eos) {
      gst_harness_push_event (ep->h, gst_event_new_eos ());
      flow_check_complete (&ep->flows[0]);
    }
    check_bus (ep->bus);
    flow_check (&ep->flows[0]);
    gst_bus_set_flushing (ep->bus, TRUE);
    gst_harness_teardown (ep->h);
  } else {
    set_state (ep, ep->pipe, GST_STATE_NULL);
    check_bus (ep->bus);
    for (s = 0; s < ep->n_filters; s++)
      flow_check (&ep->flows[s]);
    gst_bus_set_flushing (ep->bus, TRUE);
    gst_bus_set_sync_handler (ep->bus, NULL, NULL, NULL);
    for (s = 0; s < ep->n_pool_pads; s++)
      gst_object_unref (ep->pool_pads[s]);
    gst_object_unref (ep->pipe);
    g_mutex_clear (&ep->feed.lock);
  }
  gst_object_unref (ep->bus);
  for (s = 0; s < ep->n_filters; s++)
    flow_clear (&ep->flows[s]);
  step_started = 0;
  episode_desc = "";
  g_free (desc);
}

/* ---------------------------------------------------------------------- */

static guint64
env_u64 (const gchar * name, guint64 def)
{
  const gchar *v = g_getenv (name);

  return v && *v ? g_ascii_strtoull (v, NULL, 10) : def;
}

int
main (int argc, char **argv)
{
  gint64 seed_opt = -1, steps = -1, seconds = -1;
  gchar *skip = NULL, *backend_list = NULL;
  GOptionEntry entries[] = {
    {"seed", 0, 0, G_OPTION_ARG_INT64, &seed_opt, "Seed to replay", "S"},
    {"steps", 0, 0, G_OPTION_ARG_INT64, &steps, "Stop after N steps", "N"},
    {"seconds", 0, 0, G_OPTION_ARG_INT64, &seconds,
        "Stop after T seconds (0 = no limit)", "T"},
    {"skip", 0, 0, G_OPTION_ARG_STRING, &skip,
        "Action classes to leave out, comma-separated", "LIST"},
    {"backends", 0, 0, G_OPTION_ARG_STRING, &backend_list,
        "Backends to pick from (default cpu,auto)", "LIST"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- cudafilter hostile-scenario "
      "fuzzer");
  GError *err = NULL;
  gchar **backends;
  GRand *rand;
  guint i;
  gint64 start, deadline;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    fprintf (stderr, "%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  g_log_set_default_handler (log_handler, NULL);

  seed = seed_opt >= 0 ? (guint32) seed_opt :
      (guint32) env_u64 ("CF_HOSTILE_SEED", (guint32) g_get_real_time ());
  if (steps < 0)
    steps = env_u64 ("CF_HOSTILE_STEPS", 2000);
  if (seconds < 0)
    seconds = env_u64 ("CF_HOSTILE_SECONDS", 0);
  step_timeout_s = env_u64 ("CF_HOSTILE_STEP_TIMEOUT", 20);
  if (skip == NULL)
    skip = g_strdup (g_getenv ("CF_HOSTILE_SKIP"));
  if (backend_list == NULL)
    backend_list = g_strdup (g_getenv ("CF_HOSTILE_BACKENDS"));
  backends = g_strsplit (backend_list && *backend_list ? backend_list :
      "cpu,auto", ",", -1);

  for (i = 0; i < N_CLASSES; i++)
    enabled[i] = TRUE;
  if (skip && *skip) {
    gchar **names = g_strsplit (skip, ",", -1), **n;

    for (n = names; *n; n++) {
      for (i = 0; i < N_CLASSES; i++)
        if (strcmp (g_strstrip (*n), class_names[i]) == 0)
          break;
      if (i == N_CLASSES || i == A_PUSH) {
        fprintf (stderr, "unknown action class '%s'\n", *n);
        return 2;
      }
      enabled[i] = FALSE;
    }
    g_strfreev (names);
  }

  collect_formats ();
  if (enabled[A_CONTEXT])
    make_cuda_context ();
  update_repro ();
  signal (SIGSEGV, on_fatal_signal);
  signal (SIGBUS, on_fatal_signal);
  signal (SIGFPE, on_fatal_signal);
  signal (SIGABRT, on_fatal_signal);
  g_thread_unref (g_thread_new ("watchdog", watchdog, NULL));

  printf ("hostile: seed %u, up to %" G_GINT64_FORMAT " steps or %"
      G_GINT64_FORMAT " s (0 = no limit), backends %s, %u formats (%u in "
      "CUDA memory), skipping: %s\n", seed, steps, seconds,
      backend_list && *backend_list ? backend_list : "cpu,auto",
      formats->len, cuda_formats->len, skip && *skip ? skip : "nothing");
  if (enabled[A_CONTEXT] && no_cuda_context)
    printf ("hostile: the context class does nothing: %s\n", no_cuda_context);
  fflush (stdout);

  rand = g_rand_new_with_seed (seed);
  start = g_get_monotonic_time ();
  deadline = seconds ? start + seconds * G_USEC_PER_SEC : 0;
  while (step < (guint64) steps && (deadline == 0
          || g_get_monotonic_time () < deadline)) {
    Episode ep;

    memset (&ep, 0, sizeof ep);
    ep.rand = rand;
    episode_run (&ep, (const gchar * const *) backends,
        g_strv_length (backends), steps, deadline);
    episode++;
  }

  printf ("hostile: seed %u: %" G_GUINT64_FORMAT " steps in %u episodes, "
      "%.1f s; frames %" G_GUINT64_FORMAT " in, %" G_GUINT64_FORMAT " out, %"
      G_GUINT64_FORMAT " discarded by flushes, %" G_GUINT64_FORMAT
      " dropped late by QoS; %" G_GUINT64_FORMAT
      " refusals of invalid values, %d out-of-range values refused by GLib, %"
      G_GUINT64_FORMAT " CPU fallback notices, %" G_GUINT64_FORMAT
      " renegotiations retried after a flush, %" G_GUINT64_FORMAT
      " live sources restarted\n", seed, step, episode,
      (g_get_monotonic_time () - start) / 1e6, total_in, total_out,
      total_dropped, total_qos, refusals, g_atomic_int_get (&glib_expected),
      fallbacks, renegotiations, live_restarts);
  class_count[A_INVALID] = g_atomic_int_get (&invalid_sets);
  if (incomplete_warnings > (guint64) g_atomic_int_get (&half_made_changes))
    die ("%" G_GUINT64_FORMAT " warnings about a missing kernel for %d "
        "half-made changes: more than one each", incomplete_warnings,
        g_atomic_int_get (&half_made_changes));
  printf ("hostile: %d half-made changes while playing, %" G_GUINT64_FORMAT
      " warned about; settings refused at %" G_GUINT64_FORMAT " starts and %"
      G_GUINT64_FORMAT " caps changes; %" G_GUINT64_FORMAT " changes the "
      "depth did not take replaced before new caps\n",
      g_atomic_int_get (&half_made_changes), incomplete_warnings,
      refused_starts, refused_caps, deep_kept);
  printf ("hostile: steps per class (tee, preroll: episodes; stride, deep: "
      "caps; incomplete: refused starts; invalid: property values):");
  for (i = 0; i < N_CLASSES; i++)
    printf (" %s %" G_GUINT64_FORMAT, class_names[i], class_count[i]);
  printf ("\n");

  g_rand_free (rand);
  g_strfreev (backends);
  g_free (skip);
  g_free (backend_list);
  g_ptr_array_free (cuda_formats, TRUE);
  g_ptr_array_free (formats, TRUE);
  if (cuda_gst_context)
    gst_context_unref (cuda_gst_context);
  gst_deinit ();
  return 0;
}
