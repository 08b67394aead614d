/* cudafilter fuzz targets: shared bits. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

/* A finding: print it and abort, which the fuzzer records with its input. */
static inline void
fuzz_fail (const char *fmt, ...)
{
  va_list args;

  va_start (args, fmt);
  fprintf (stderr, "FUZZ FAILURE: ");
  vfprintf (stderr, fmt, args);
  fprintf (stderr, "\n");
  va_end (args);
  abort ();
}

/* Input bytes read in order; zeros once they run out. */
typedef struct
{
  const uint8_t *p;
  size_t n;
} FuzzReader;

static inline unsigned
fuzz_u8 (FuzzReader * r)
{
  if (r->n == 0)
    return 0;
  r->n--;
  return *r->p++;
}

static inline unsigned
fuzz_u16 (FuzzReader * r)
{
  unsigned lo = fuzz_u8 (r);

  return lo | (fuzz_u8 (r) << 8);
}

#endif /* FUZZ_COMMON_H */
