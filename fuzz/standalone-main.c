/* A main () for the fuzz targets where libFuzzer is not available (gcc):
 * runs the target on each file named on the command line, or on -runs=N
 * pseudo-random inputs (default 2000, seed from -seed=S).  It explores
 * nothing by itself, but keeps the targets built and their checks run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "fuzz-common.h"

int
main (int argc, char **argv)
{
  guint64 runs = 2000, seed = 1, i;
  int files = 0, a;

  for (a = 1; a < argc; a++) {
    if (g_str_has_prefix (argv[a], "-runs="))
      runs = g_ascii_strtoull (argv[a] + 6, NULL, 10);
    else if (g_str_has_prefix (argv[a], "-seed="))
      seed = g_ascii_strtoull (argv[a] + 6, NULL, 10);
    else if (argv[a][0] != '-') {
      gchar *data;
      gsize len;

      if (!g_file_get_contents (argv[a], &data, &len, NULL)) {
        fprintf (stderr, "cannot read %s\n", argv[a]);
        return 1;
      }
      LLVMFuzzerTestOneInput ((const uint8_t *) data, len);
      g_free (data);
      files++;
    }
  }
  if (files > 0) {
    printf ("%d input(s) replayed\n", files);
    return 0;
  }

  {
    GRand *rand = g_rand_new_with_seed ((guint32) seed);
    guint8 *buf = g_malloc (4096);

    for (i = 0; i < runs; i++) {
      gsize len = g_rand_int_range (rand, 0, 4096), b;

      for (b = 0; b < len; b++)
        buf[b] = g_rand_int_range (rand, 0, 256);
      /* Small frames most of the time, so inputs are not all skipped. */
      if (len > 6 && (i & 1)) {
        buf[2] %= 24;
        buf[3] = 0;
        buf[4] %= 24;
        buf[5] = 0;
      }
      LLVMFuzzerTestOneInput (buf, len);
    }
    g_free (buf);
    g_rand_free (rand);
  }
  printf ("%" G_GUINT64_FORMAT " random inputs (seed %" G_GUINT64_FORMAT
      ")\n", runs, seed);
  return 0;
}
