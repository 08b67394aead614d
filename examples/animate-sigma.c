/* cudafilter example: animate the blur with GstController.
 *
 * sigma rises linearly from 0.5 to 8.0 over the first two seconds of the
 * stream, then stays; the element picks up the controlled value for every
 * frame from its timestamp.  Any property marked "controllable" in
 * gst-inspect-1.0 cudafilter can be animated the same way.
 *
 * The check: each frame reaching the sink was filtered with the sigma the
 * control curve gives at its timestamp, 0.5 + 7.5 * t / 2 s.
 *
 * Build:  cc animate-sigma.c $(pkg-config --cflags --libs \
 *           gstreamer-controller-1.0) -o animate-sigma
 * Run:    GST_PLUGIN_PATH=/path/to/build/gst ./animate-sigma [auto|cuda|cpu]
 */
#include <math.h>
#include <stdio.h>
#include <gst/gst.h>
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>

#define N_FRAMES 75             /* 2.5 s at 30 fps */

typedef struct
{
  GstElement *filter;
  int frames;
  int wrong;
  gdouble last_sigma;
} Check;

/* Called for each frame that leaves the filter.  With frames-in-flight=1
 * a frame leaves before the next one is taken in, so sigma still holds
 * the value it was filtered with. */
static GstPadProbeReturn
on_frame (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Check *c = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gdouble t = GST_BUFFER_PTS (buf) / (gdouble) GST_SECOND;
  gdouble want = 0.5 + 7.5 * MIN (t, 2.0) / 2.0;
  gdouble sigma;

  g_object_get (c->filter, "sigma", &sigma, NULL);
  if (fabs (sigma - want) > 1e-6 && c->wrong++ < 5)
    fprintf (stderr, "t=%.3f s: sigma %g, expected %g\n", t, sigma, want);
  c->last_sigma = sigma;
  c->frames++;
  return GST_PAD_PROBE_OK;
}

int
main (int argc, char **argv)
{
  const gchar *backend = argc > 1 ? argv[1] : "auto";
  GstElement *pipeline;
  GstControlSource *cs;
  GstTimedValueControlSource *tvcs;
  GstMessage *msg;
  GstBus *bus;
  GstPad *pad;
  GError *err = NULL;
  gchar *desc;
  Check c = { 0 };

  gst_init (&argc, &argv);

  desc = g_strdup_printf ("videotestsrc num-buffers=%d pattern=ball ! "
      "video/x-raw,format=BGRx,width=320,height=240,framerate=30/1 ! "
      "cudafilter name=filter frames-in-flight=1 backend=%s ! fakesink",
      N_FRAMES, backend);
  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (pipeline == NULL) {
    fprintf (stderr, "Could not build the pipeline: %s\n", err->message);
    return 1;
  }
  c.filter = gst_bin_get_by_name (GST_BIN (pipeline), "filter");

  /* The control source gives values in the property's own units when
   * bound with gst_direct_control_binding_new_absolute (). */
  cs = gst_interpolation_control_source_new ();
  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  tvcs = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
  gst_timed_value_control_source_set (tvcs, 0, 0.5);
  gst_timed_value_control_source_set (tvcs, 2 * GST_SECOND, 8.0);
  gst_object_add_control_binding (GST_OBJECT (c.filter),
      gst_direct_control_binding_new_absolute (GST_OBJECT (c.filter),
          "sigma", cs));
  gst_object_unref (cs);

  pad = gst_element_get_static_pad (c.filter, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_frame, &c, NULL);
  gst_object_unref (pad);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    fprintf (stderr, "Error: %s\n", err->message);
    c.wrong++;
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  printf ("%d frames, sigma went from 0.5 to %g, %d off the curve\n",
      c.frames, c.last_sigma, c.wrong);
  if (c.frames != N_FRAMES || fabs (c.last_sigma - 8.0) > 1e-6)
    c.wrong++;

  gst_object_unref (c.filter);
  gst_object_unref (pipeline);
  return c.wrong ? 1 : 0;
}
