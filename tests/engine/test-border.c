/* cudafilter engine unit tests: border index mapping (cf_border_index,
 * kernels/cf-arith.h) against OpenCV 4.6 borderInterpolate.  None of the
 * reference numbers is produced by the code under test. */
#include "cf-spec.h"
#include "cf-arith.h"

/* cv2.borderInterpolate (i, n, mode) for i = -7 .. 11 */
static const struct
{
  int n;
  CfBorder border;
  int map[19];
} border_ref[] = {
  {5, CF_BORDER_REFLECT101,
      {1, 2, 3, 4, 3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 1, 0, 1, 2, 3}},
  {5, CF_BORDER_REPLICATE,
      {0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4}},
  {5, CF_BORDER_REFLECT,
      {3, 4, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 4, 3, 2, 1, 0, 0, 1}},
  {5, CF_BORDER_WRAP,
      {3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1}},
  {5, CF_BORDER_CONSTANT, {-1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, -1, -1,
          -1, -1, -1, -1, -1}},
  {2, CF_BORDER_REFLECT101,
      {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}},
  {2, CF_BORDER_REFLECT,
      {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0}},
  {2, CF_BORDER_WRAP,
      {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}},
  {1, CF_BORDER_REFLECT101, {0}},
  {1, CF_BORDER_REFLECT, {0}},
  {1, CF_BORDER_WRAP, {0}},
  {1, CF_BORDER_REPLICATE, {0}},
};

static void
test_border_index (void)
{
  guint t;
  int i;

  for (t = 0; t < G_N_ELEMENTS (border_ref); t++)
    for (i = -7; i <= 11; i++)
      g_assert_cmpint (cf_border_index (i, border_ref[t].n,
              border_ref[t].border), ==, border_ref[t].map[i + 7]);
  /* far outside still lands inside */
  g_assert_cmpint (cf_border_index (-1000001, 7, CF_BORDER_REFLECT101), >=, 0);
  g_assert_cmpint (cf_border_index (1000001, 7, CF_BORDER_REFLECT), <, 7);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/border/index", test_border_index);
  return g_test_run ();
}
