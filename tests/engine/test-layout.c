/* cudafilter engine unit tests: sample encodings of a layout (cf-layout.c,
 * cf-sample.h), worked out by hand.  None of the reference numbers is
 * produced by the code under test. */
#include <string.h>
#include "cf-spec.h"
#include "cf-sample.h"
#include "cf-layout.h"

static void
test_sample_encoding (void)
{
  CfLayout layout = { 0 };
  CfChannel p010 = { 0 }, green = { 0 };
  guint8 w16[2] = { 0xFF, 0xFF };       /* 1023 << 6 | 0x3F */
  guint8 w32[4] = { 0x78, 0x56, 0x34, 0x12 };

  p010.word_bytes = 2;
  p010.depth = 10;
  p010.shift = 6;
  g_assert_cmpint (cf_sample_read (w16, &p010), ==, 1023);
  cf_sample_write (w16, &p010, 512);
  g_assert_cmpint (w16[0] | w16[1] << 8, ==, 512 << 6);

  /* 0x12345678: bits 10-19 are 0x115 */
  green.word_bytes = 4;
  green.depth = 10;
  green.shift = 10;
  green.shared_word = 1;
  g_assert_cmpint (cf_sample_read (w32, &green), ==, 0x115);
  cf_sample_write (w32, &green, 0x3FF);
  g_assert_cmphex (GUINT32_FROM_LE (*(guint32 *) w32), ==,
      0x12345678u | (0x3FFu << 10));

  layout.sample_bytes = 2;
  g_assert_true (cf_layout_add_channel (&layout, CF_CHANNEL_FILTER, 0, 4, 4,
          2, 0, 0));
  g_assert_cmpint (layout.channels[0].word_bytes, ==, 2);
  g_assert_cmpint (layout.channels[0].depth, ==, 16);
  g_assert_false (cf_layout_set_encoding (&layout, 3, 10, 0, FALSE));
  g_assert_false (cf_layout_set_encoding (&layout, 2, 10, 7, FALSE));
  g_assert_false (cf_layout_set_encoding (&layout, 2, 10, 0, TRUE));
  g_assert_false (cf_layout_set_encoding (&layout, 4, 17, 0, TRUE));
  g_assert_true (cf_layout_set_encoding (&layout, 2, 10, 6, FALSE));
}

/* A spec per depth: 10-bit values saturate at 1023, the border value is
 * clamped there, and a 12-bit box of 4095 stays 4095. */

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sample/encoding", test_sample_encoding);
  return g_test_run ();
}
