/* cudafilter: the launcher C ABI between the engine and the CUDA kernels.
 * Every launcher takes an explicit stream and returns a cudaError_t. */
#ifndef CF_LAUNCH_H
#define CF_LAUNCH_H

#include <cuda_runtime_api.h>
#include "cf-types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device pointers and pitches (bytes) of one frame's planes, and the
 * channel jobs: every job of the frame runs in one launch. */
typedef struct
{
  const unsigned char *src[CF_MAX_PLANES];
  long long src_stride[CF_MAX_PLANES];
  unsigned char *dst[CF_MAX_PLANES];
  long long dst_stride[CF_MAX_PLANES];
  int n_channels;
  CfChannel channels[CF_MAX_CHANNELS];
} CfDeviceFrame;

/* Filters every channel of `frame` in one launch on `stream`.
 * `dense` is a device array of kp->kh * kp->kw weights when !kp->separable. */
cudaError_t cf_launch_filter (const CfDeviceFrame * frame,
    const CfKernelParams * kp, const CfSepWeights * sep, const int *dense,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CF_LAUNCH_H */
