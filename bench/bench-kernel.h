/* The benchmarks' dense custom kernel: "N x N" random integers, fixed
 * content for each N, normalised by their sum by the custom filter unless
 * a divisor is given; dense, since a random matrix is not separable.  The
 * GPU and CPU benchmarks time the same matrices. */
#ifndef BENCH_KERNEL_H
#define BENCH_KERNEL_H

#include <glib.h>

static inline char *
random_kernel (int n)
{
  GString *s = g_string_new (NULL);
  GRand *rand = g_rand_new_with_seed (n);

  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++)
      g_string_append_printf (s, "%d ", g_rand_int_range (rand, -6, 10));
    g_string_append (s, j < n - 1 ? ";" : "");
  }
  g_rand_free (rand);
  return g_string_free (s, FALSE);
}

#endif /* BENCH_KERNEL_H */
