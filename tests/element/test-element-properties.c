/* cudafilter element tests: properties: validation, backend selection,
 * metadata. */
#include "element-common.h"

/* Properties */

GST_START_TEST (test_property_validation)
{
  GstElement *e = make_filter (BACKEND_CPU, NULL);
  GstBus *bus = gst_bus_new ();
  GParamSpec *pspec;
  GValue v = G_VALUE_INIT;
  gint ks;
  gchar *kernel;

  gst_element_set_bus (e, bus);

  /* Even kernel-size: kept at the old value, with a warning naming it. */
  g_object_set (e, "kernel-size", 5, NULL);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  g_object_set (e, "kernel-size", 4, NULL);
  g_object_get (e, "kernel-size", &ks, NULL);
  check_int (ks, 5);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    assert_message_mentions (m, "kernel-size", "odd", NULL);
    gst_message_unref (m);
  }

  /* sigma's range excludes 0. */
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "sigma");
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->minimum > 0.0);
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, 0.0);
  fail_unless (g_param_value_validate (pspec, &v));
  g_value_unset (&v);
  fail_unless (pspec->flags & GST_PARAM_CONTROLLABLE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);

  /* Kernel strings: good, ragged, malformed. */
  g_object_set (e, "kernel", "1,2,3; 4,5,6", NULL);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  g_object_set (e, "kernel", "1 2; 3", NULL);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    assert_message_mentions (m, "kernel", NULL);
    gst_message_unref (m);
  }
  g_object_set (e, "kernel", "1 a 3", NULL);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    assert_message_mentions (m, "kernel", NULL);
    gst_message_unref (m);
  }
  g_object_get (e, "kernel", &kernel, NULL);
  fail_unless_equals_string (kernel, "1,2,3; 4,5,6");
  g_free (kernel);

  /* Sobel apertures stop at 7. */
  gst_util_set_object_arg (G_OBJECT (e), "filter", "sobel");
  g_object_set (e, "kernel-size", 3, NULL);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  g_object_set (e, "kernel-size", 9, NULL);
  g_object_get (e, "kernel-size", &ks, NULL);
  check_int (ks, 3);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    assert_message_mentions (m, "kernel-size", NULL);
    gst_message_unref (m);
  }

  /* The nonlinear filters' refusals, in the same form. */
  g_object_set (e, "kernel", NULL, "kernel-size", 0, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "filter", "median");
  g_object_set (e, "kernel-size", 5, NULL);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  g_object_set (e, "kernel-size", 6, NULL);
  g_object_get (e, "kernel-size", &ks, NULL);
  check_int (ks, 5);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    assert_message_mentions (m, "kernel-size", "median", NULL);
    gst_message_unref (m);
  }
  gst_util_set_object_arg (G_OBJECT (e), "filter", "erode");
  g_object_set (e, "kernel", "0 1 0; 1 1 1; 0 1 0", NULL);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  g_object_set (e, "kernel", "0 0; 0 0", NULL);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    assert_message_mentions (m, "kernel", "structuring element", NULL);
    gst_message_unref (m);
  }
  g_object_get (e, "kernel", &kernel, NULL);
  fail_unless_equals_string (kernel, "0 1 0; 1 1 1; 0 1 0");
  g_free (kernel);
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "iterations");
  check_int (G_PARAM_SPEC_INT (pspec)->minimum, 1);
  gst_util_set_object_arg (G_OBJECT (e), "filter", "bilateral");
  g_object_set (e, "sigma-color", 25.0, NULL);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  g_object_set (e, "sigma-color", 0.0, NULL);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    gdouble sc;

    assert_message_mentions (m, "sigma-color", "greater than 0", NULL);
    gst_message_unref (m);
    g_object_get (e, "sigma-color", &sc, NULL);
    fail_unless (sc == 25.0);
  }
  gst_util_set_object_arg (G_OBJECT (e), "filter", "gaussian");
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);

  /* custom before kernel is fine while properties are being set. */
  g_object_set (e, "kernel", NULL, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "filter", "custom");
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);

  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_custom_without_kernel)
{
  const gchar *props[] = { "filter", "custom", NULL };
  GstBus *bus = gst_bus_new ();
  GstElement *e;
  GstMessage *m;

  SKIP_WITHOUT_BACKEND (__i__);

  /* Settings that cannot work fail the start, as filesrc without a
   * location does. */
  e = make_filter (__i__, props);
  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  m = pop_message (bus, GST_MESSAGE_ERROR);
  assert_message_mentions (m, "kernel", "custom", NULL);
  gst_message_unref (m);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
  /* Queued messages hold the element. */
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
}

GST_END_TEST;

GST_START_TEST (test_backend_selection)
{
  GstElement *e;
  GstBus *bus;
  GstMessage *m;
  gboolean have_cuda = backend_usable (BACKEND_CUDA);

  /* backend=cuda without a device: an error saying what to do instead. */
  e = make_filter (BACKEND_CUDA, NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  if (!have_cuda) {
    check_int (gst_element_set_state (e, GST_STATE_PAUSED),
        GST_STATE_CHANGE_FAILURE);
    m = pop_message (bus, GST_MESSAGE_ERROR);
    assert_message_mentions (m, "backend=cpu", NULL);
    gst_message_unref (m);
  } else {
    fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE);
  }
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (e);
  gst_object_unref (bus);

  /* backend=auto: the CPU, with one warning, when no device is usable. */
  e = gst_element_factory_make ("cudafilter", NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  m = pop_message (bus, GST_MESSAGE_WARNING);
  if (have_cuda) {
    fail_unless (m == NULL);
  } else {
    assert_message_mentions (m, "CPU", NULL);
    gst_message_unref (m);
  }
  gst_element_set_state (e, GST_STATE_READY);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (e);
  gst_object_unref (bus);
}

GST_END_TEST;

GST_START_TEST (test_element_metadata)
{
  GstElementFactory *f = gst_element_factory_find ("cudafilter");
  GstElement *e;
  GParamSpec *pspec;
  GEnumClass *modes;
  guint i;

  fail_unless (f != NULL);
  fail_unless_equals_string (gst_element_factory_get_metadata (f,
          GST_ELEMENT_METADATA_KLASS), "Filter/Effect/Video/Hardware");
  e = gst_element_factory_create (f, NULL);
  gst_object_unref (f);
  fail_unless (e != NULL);

  /* The filter nicks are the public interface. */
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "filter");
  fail_unless (pspec != NULL);
  fail_unless_equals_string (g_type_name (G_PARAM_SPEC_VALUE_TYPE (pspec)),
      "GstCudaFilterMode");
  modes = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  for (i = 0; i < G_N_ELEMENTS (all_filters); i++)
    fail_unless (g_enum_get_value_by_nick (modes, all_filters[i]) != NULL,
        "%s", all_filters[i]);
  check_int (G_PARAM_SPEC_ENUM (pspec)->default_value, 0);
  fail_unless (g_type_from_name ("GstCudaFilterBorder") != 0);
  fail_unless (g_type_from_name ("GstCudaFilterShape") != 0);

  /* gst-inspect-1.0 says which filters read the new properties. */
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "shape");
  fail_unless (strstr (g_param_spec_get_blurb (pspec),
          "used by erode, dilate, open, close, gradient, tophat and "
          "blackhat") != NULL, "%s", g_param_spec_get_blurb (pspec));
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "sigma-color");
  fail_unless (g_str_has_suffix (g_param_spec_get_blurb (pspec),
          "used by bilateral only"), "%s", g_param_spec_get_blurb (pspec));
  /* bilateral reads sigma (spatial), not sigma-y. */
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "sigma");
  fail_unless (g_str_has_suffix (g_param_spec_get_blurb (pspec),
          "used by gaussian, sharpen and bilateral"), "%s",
      g_param_spec_get_blurb (pspec));
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "sigma-y");
  fail_unless (g_str_has_suffix (g_param_spec_get_blurb (pspec),
          "used by gaussian and sharpen"), "%s",
      g_param_spec_get_blurb (pspec));
  fail_unless (g_type_from_name ("GstCudaFilterBackend") != 0);
  fail_unless (g_type_from_name ("GstCudaFilterPlanes") != 0);
  gst_object_unref (e);
}

GST_END_TEST;

static void
add_backend_tests (TCase * tc, int backend)
{
  ADD_BACKEND_TEST (tc, test_custom_without_kernel, backend);
}

static Suite *
element_properties_suite (void)
{
  Suite *s = element_suite_new ("cudafilter-properties", add_backend_tests);
  TCase *tc_props = tcase_create ("properties");

  suite_add_tcase (s, tc_props);
  tcase_add_test (tc_props, test_element_metadata);
  tcase_add_test (tc_props, test_property_validation);
  tcase_add_test (tc_props, test_backend_selection);
  return s;
}

GST_CHECK_MAIN (element_properties);
