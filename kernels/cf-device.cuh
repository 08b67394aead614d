/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: plumbing the kernel files share (internal to kernels/, CUDA
 * only): sample access at (x, y) of a channel, launches that opt in to
 * more than 48 KB of dynamic shared memory, and the kernel a launch plan
 * picked. */
#ifndef CF_DEVICE_CUH
#define CF_DEVICE_CUH

#include <cuda_runtime.h>
#include "cf-sample.h"

/* The value of sample (x, y) of a channel whose rows lie stride bytes
 * apart from base (the plane plus the channel's offset), decoded as
 * kernels/cf-sample.h says. */
__device__ __forceinline__ int
load_sample (const unsigned char *base, long long stride, const CfChannel & ch,
    int x, int y)
{
  return cf_sample_read (base + y * stride + (long long) x * ch.pixel_stride,
      &ch);
}

__device__ __forceinline__ void
store_sample (unsigned char *base, long long stride, const CfChannel & ch,
    int x, int y, int v)
{
  cf_sample_write (base + y * stride + (long long) x * ch.pixel_stride, &ch,
      v);
}

/* Launches kernel (args) with `bytes` of dynamic shared memory.  The opt-in
 * above 48 KB is made per launch, as the attribute belongs to the current
 * device. */
template < typename Args > cudaError_t
cf_start_kernel (void (*kernel) (Args), dim3 grid, dim3 block, size_t bytes,
    const Args & args, cudaStream_t stream)
{
  if (bytes > 48 * 1024) {
    cudaError_t err = cudaFuncSetAttribute (kernel,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) bytes);
    if (err != cudaSuccess)
      return err;
  }
  kernel <<< grid, block, bytes, stream >>> (args);
  return cudaGetLastError ();
}

/* A kernel chosen once for a spec and layout (cf-plan.cu): everything
 * cf_start_kernel takes but the arguments. */
template < typename Args > struct CfKernelPick
{
  void (*kernel) (Args);
  dim3 grid, block;
  size_t bytes;
};

/* What the choosers call where they used to launch. */
template < typename Args > cudaError_t
cf_pick_kernel (CfKernelPick < Args > &pick, void (*kernel) (Args), dim3 grid,
    dim3 block, size_t bytes)
{
  pick.kernel = kernel;
  pick.grid = grid;
  pick.block = block;
  pick.bytes = bytes;
  return cudaSuccess;
}

template < typename Args > cudaError_t
cf_launch_pick (const CfKernelPick < Args > &pick, const Args & args,
    cudaStream_t stream)
{
  return cf_start_kernel (pick.kernel, pick.grid, pick.block, pick.bytes,
      args, stream);
}

#endif /* CF_DEVICE_CUH */
