/* cudafilter: fast paths for 8-bit frames, tried before the general kernel.
 * Internal to the kernels; the engine sees only cf_launch_filter. */
#ifndef CF_FAST_H
#define CF_FAST_H

#include "cf-launch.h"

/* Runs the filter on a fast path when the frame, its alignment and the spec
 * allow one; returns cudaErrorNotSupported (launching nothing) otherwise. */
cudaError_t cf_fast_launch (const CfDeviceFrame * frame,
    const CfKernelParams * kp, const CfSepWeights * sep, const int *dense,
    cudaStream_t stream);

#endif /* CF_FAST_H */
