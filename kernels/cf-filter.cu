/* cudafilter: the filter kernel.  One launch runs every channel job of a
 * frame: grid z is the job, x and y tile the job's plane, and blocks past the
 * edge of a smaller plane (chroma) return at once.
 *
 * A block loads its tile plus the kernel's apron into shared memory, mapping
 * coordinates outside the plane through cf_border_index (no padding copies),
 * then sums in integers: separable weights as a horizontal pass into a shared
 * buffer followed by a vertical pass, dense weights directly.  The sums are
 * exact, so the order in which threads add does not matter and cf_post gives
 * the CPU backend's bytes. */

#include <stdint.h>
#include <cuda_runtime.h>

#include "cf-launch.h"
#include "cf-arith.h"

namespace
{

/* Threads per block: one warp across, BLOCK_Y rows; each thread computes
 * `rows` outputs down a column (the tile is BLOCK_X x BLOCK_Y * rows). */
constexpr int BLOCK_X = 32;
constexpr int BLOCK_Y = 8;
constexpr int MAX_ROWS = 4;

struct FilterArgs
{
  CfDeviceFrame frame;
  CfKernelParams kp;
  CfSepWeights sep;
  const int *dense;
  int rows;
};

__host__ __device__ constexpr size_t
align16 (size_t n)
{
  return (n + 15) & ~(size_t) 15;
}

template < typename T > __device__ __forceinline__ int
load_sample (const unsigned char *base, long long stride, int pixel_stride,
    int x, int y)
{
  return *(const T *) (base + y * stride + (long long) x * pixel_stride);
}

template < typename T > __device__ __forceinline__ void
store_sample (unsigned char *base, long long stride, int pixel_stride,
    int x, int y, int v)
{
  *(T *) (base + y * stride + (long long) x * pixel_stride) = (T) v;
}

template < typename T, typename Acc > __global__ void
__launch_bounds__ (BLOCK_X * BLOCK_Y)
filter_kernel (const __grid_constant__ FilterArgs a)
{
  extern __shared__ __align__ (16) unsigned char smem[];
  const CfChannel & ch = a.frame.channels[blockIdx.z];
  const int tile_h = BLOCK_Y * a.rows;
  const int x0 = blockIdx.x * BLOCK_X;
  const int y0 = blockIdx.y * tile_h;
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;

  if (x0 >= ch.width || y0 >= ch.height)
    return;

  const unsigned char *src = a.frame.src[ch.plane] + ch.offset;
  unsigned char *dst = a.frame.dst[ch.plane] + ch.offset;
  const long long ss = a.frame.src_stride[ch.plane];
  const long long ds = a.frame.dst_stride[ch.plane];
  const int ps = ch.pixel_stride;

  if (ch.mode != CF_CHANNEL_FILTER) {
    /* COPY and FILL: no shared memory and no barrier, so threads past the
     * edge may leave early. */
    const int x = x0 + tx;
    if (x >= ch.width)
      return;
    for (int r = ty; r < tile_h && y0 + r < ch.height; r += BLOCK_Y) {
      int v = ch.mode == CF_CHANNEL_FILL ? ch.fill_value :
          load_sample < T > (src, ss, ps, x, y0 + r);
      store_sample < T > (dst, ds, ps, x, y0 + r, v);
    }
    return;
  }

  const CfKernelParams & kp = a.kp;
  const int kw = kp.kw;
  const int kh = kp.kh;
  const int in_w = BLOCK_X + kw - 1;
  const int in_h = tile_h + kh - 1;
  int *in = (int *) smem;
  unsigned char *rest = smem + align16 ((size_t) in_w * in_h * sizeof (int));

  /* The tile and its apron, borders resolved here once per sample. */
  for (int r = ty; r < in_h; r += BLOCK_Y) {
    const int Y = cf_border_index (y0 + r - kp.ay, ch.height, kp.border);
    for (int c = tx; c < in_w; c += BLOCK_X) {
      const int X = cf_border_index (x0 + c - kp.ax, ch.width, kp.border);
      in[r * in_w + c] = (X < 0 || Y < 0) ? kp.border_value :
          load_sample < T > (src, ss, ps, X, Y);
    }
  }

  Acc acc[MAX_ROWS][2];
#pragma unroll
  for (int n = 0; n < MAX_ROWS; n++)
    acc[n][0] = acc[n][1] = 0;

  if (kp.separable) {
    Acc *hbuf = (Acc *) rest;

    __syncthreads ();
    for (int k = 0; k < kp.n_kernels; k++) {
      const int *row = a.sep.row[k];
      for (int r = ty; r < in_h; r += BLOCK_Y) {
        const int *ip = in + r * in_w + tx;
        Acc s = 0;
        for (int i = 0; i < kw; i++)
          s += (Acc) row[i] * ip[i];
        hbuf[(k * in_h + r) * BLOCK_X + tx] = s;
      }
    }
    __syncthreads ();
    /* Unrolled with guards so acc[][] stays in registers. */
#pragma unroll
    for (int k = 0; k < 2; k++) {
      if (k >= kp.n_kernels)
        break;
      const int *col = a.sep.col[k];
      const Acc *hp = hbuf + k * in_h * BLOCK_X + tx;
#pragma unroll
      for (int n = 0; n < MAX_ROWS; n++) {
        if (n >= a.rows)
          break;
        const int r = ty + n * BLOCK_Y;
        Acc s = 0;
        for (int j = 0; j < kh; j++)
          s += (Acc) col[j] * hp[(r + j) * BLOCK_X];
        acc[n][k] = s;
      }
    }
  } else {
    int *w = (int *) rest;

    for (int t = ty * BLOCK_X + tx; t < kw * kh; t += BLOCK_X * BLOCK_Y)
      w[t] = a.dense[t];
    __syncthreads ();
#pragma unroll
    for (int n = 0; n < MAX_ROWS; n++) {
      if (n >= a.rows)
        break;
      const int r = ty + n * BLOCK_Y;
      Acc s = 0;
      for (int j = 0; j < kh; j++) {
        const int *ip = in + (r + j) * in_w + tx;
        const int *wp = w + j * kw;
        for (int i = 0; i < kw; i++)
          s += (Acc) wp[i] * ip[i];
      }
      acc[n][0] = s;
    }
  }

  const int x = x0 + tx;
  if (x >= ch.width)
    return;
#pragma unroll
  for (int n = 0; n < MAX_ROWS; n++) {
    const int r = ty + n * BLOCK_Y;
    if (n >= a.rows || y0 + r >= ch.height)
      break;
    const int centre = in[(r + kp.ay) * in_w + tx + kp.ax];
    store_sample < T > (dst, ds, ps, x, y0 + r,
        cf_post (&kp, acc[n][0], acc[n][1], centre));
  }
}

/* Dynamic shared memory for a tile of `rows` rows per thread. */
size_t
smem_bytes (const CfKernelParams * kp, int rows, size_t acc_size)
{
  const size_t in_w = BLOCK_X + kp->kw - 1;
  const size_t in_h = (size_t) BLOCK_Y * rows + kp->kh - 1;
  size_t bytes = align16 (in_w * in_h * sizeof (int));

  if (kp->separable)
    bytes += (size_t) kp->n_kernels * BLOCK_X * in_h * acc_size;
  else
    bytes += (size_t) kp->kw * kp->kh * sizeof (int);
  return bytes;
}

template < typename T, typename Acc > cudaError_t
launch (FilterArgs & args, int max_w, int max_h, cudaStream_t stream)
{
  auto kernel = filter_kernel < T, Acc >;
  cudaError_t err;
  int device, optin;
  size_t smem = 0;

  if ((err = cudaGetDevice (&device)) != cudaSuccess)
    return err;
  err = cudaDeviceGetAttribute (&optin,
      cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (err != cudaSuccess)
    return err;

  /* The tallest tile that fits: large kernels get shorter tiles. */
  for (args.rows = MAX_ROWS; args.rows >= 1; args.rows /= 2) {
    smem = smem_bytes (&args.kp, args.rows, sizeof (Acc));
    if (smem <= (size_t) optin)
      break;
  }
  if (args.rows < 1)
    return cudaErrorInvalidConfiguration;
  if (smem > 48 * 1024) {
    err = cudaFuncSetAttribute (kernel,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
    if (err != cudaSuccess)
      return err;
  }

  const int tile_h = BLOCK_Y * args.rows;
  dim3 block (BLOCK_X, BLOCK_Y, 1);
  dim3 grid ((max_w + BLOCK_X - 1) / BLOCK_X, (max_h + tile_h - 1) / tile_h,
      args.frame.n_channels);

  kernel <<< grid, block, smem, stream >>> (args);
  return cudaGetLastError ();
}

}                               /* namespace */

extern "C" cudaError_t
cf_launch_filter (const CfDeviceFrame * frame, const CfKernelParams * kp,
    const CfSepWeights * sep, const int *dense, cudaStream_t stream)
{
  FilterArgs args = { };
  int max_w = 0, max_h = 0;

  if (frame->n_channels <= 0)
    return cudaSuccess;
  if (frame->n_channels > CF_MAX_CHANNELS || kp->kw < 1 || kp->kh < 1 ||
      kp->kw > CF_MAX_TAPS || kp->kh > CF_MAX_TAPS ||
      (kp->separable && (kp->n_kernels < 1 || kp->n_kernels > 2)) ||
      (!kp->separable && (kp->n_kernels != 1 || dense == NULL)) ||
      (kp->sample_bytes != 1 && kp->sample_bytes != 2))
    return cudaErrorInvalidValue;

  for (int i = 0; i < frame->n_channels; i++) {
    const CfChannel *ch = &frame->channels[i];
    if (ch->plane < 0 || ch->plane >= CF_MAX_PLANES)
      return cudaErrorInvalidValue;
    if (ch->width > max_w)
      max_w = ch->width;
    if (ch->height > max_h)
      max_h = ch->height;
  }
  if (max_w <= 0 || max_h <= 0)
    return cudaSuccess;

  args.frame = *frame;
  args.kp = *kp;
  if (kp->separable)
    args.sep = *sep;
  args.dense = dense;
  args.rows = 1;

  if (kp->sample_bytes == 1)
    return kp->wide_acc ? launch < uint8_t, long long >(args, max_w, max_h,
        stream) : launch < uint8_t, int >(args, max_w, max_h, stream);
  return kp->wide_acc ? launch < uint16_t, long long >(args, max_w, max_h,
      stream) : launch < uint16_t, int >(args, max_w, max_h, stream);
}
