/* A libcuda.so.1 for a machine with the NVIDIA driver's user-space library
 * but no kernel driver or device (a container that mounts the driver
 * libraries without /dev/nvidia*): cuInit fails with CUDA_ERROR_NO_DEVICE
 * and every other entry point, found by name or through cuGetProcAddress,
 * answers CUDA_ERROR_NOT_INITIALIZED.  The CUDA runtime and libgstcuda both
 * load it, as they would the real driver library.
 *
 * CF_STUB_DEVICES=N (N > 0) gives the entry points found by name, the ones
 * libgstcuda-1.0 uses, N devices that hold contexts and nothing else:
 * cuInit, the device queries, creating, destroying, pushing and popping
 * contexts and their limits succeed (each context a heap block, so a use
 * after its destruction shows under valgrind); memory, streams, modules and
 * the rest answer CUDA_ERROR_NOT_SUPPORTED.  GstCudaContext and context
 * sharing then run for real with no GPU.  The CUDA runtime, which finds the
 * driver through cuGetProcAddress and would need a real one to run
 * kernels, still sees no device.
 *
 * CF_STUB_TRACE=1 prints each entry point the first time it is asked for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long cuuint64_t;

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_INVALID_CONTEXT 201
#define CUDA_ERROR_NOT_FOUND 500
#define CUDA_ERROR_NOT_SUPPORTED 801

/* CUdevice_attribute values the GStreamer CUDA library reads. */
#define ATTR_TEXTURE_ALIGNMENT 14
#define ATTR_COMPUTE_CAPABILITY_MAJOR 75
#define ATTR_COMPUTE_CAPABILITY_MINOR 76

#define EXPORT __attribute__ ((visibility ("default")))

static void
trace (const char *what)
{
  if (getenv ("CF_STUB_TRACE"))
    fprintf (stderr, "stub-libcuda: %s\n", what);
}

/* CF_STUB_DEVICES, read once. */
static int
devices (void)
{
  static int n = -1;

  if (n < 0) {
    const char *v = getenv ("CF_STUB_DEVICES");

    n = v ? atoi (v) : 0;
    if (n < 0)
      n = 0;
  }
  return n;
}

static int initialised;

/* What the CUDA runtime finds through cuGetProcAddress: never a device. */
static CUresult
runtime_cuInit (unsigned int flags)
{
  (void) flags;
  trace ("cuInit (runtime) -> CUDA_ERROR_NO_DEVICE");
  return CUDA_ERROR_NO_DEVICE;
}

EXPORT CUresult
cuInit (unsigned int flags)
{
  (void) flags;
  if (devices () == 0)
    return runtime_cuInit (flags);
  trace ("cuInit -> CUDA_SUCCESS");
  initialised = 1;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuDriverGetVersion (int *version)
{
  if (version == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  *version = 13000;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuDeviceGetCount (int *count)
{
  if (count)
    *count = initialised ? devices () : 0;
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  return count ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static const char *
error_name (CUresult r)
{
  switch (r) {
    case CUDA_SUCCESS:
      return "CUDA_SUCCESS";
    case CUDA_ERROR_INVALID_VALUE:
      return "CUDA_ERROR_INVALID_VALUE";
    case CUDA_ERROR_NOT_INITIALIZED:
      return "CUDA_ERROR_NOT_INITIALIZED";
    case CUDA_ERROR_NO_DEVICE:
      return "CUDA_ERROR_NO_DEVICE";
    case CUDA_ERROR_INVALID_DEVICE:
      return "CUDA_ERROR_INVALID_DEVICE";
    case CUDA_ERROR_INVALID_CONTEXT:
      return "CUDA_ERROR_INVALID_CONTEXT";
    case CUDA_ERROR_NOT_FOUND:
      return "CUDA_ERROR_NOT_FOUND";
    case CUDA_ERROR_NOT_SUPPORTED:
      return "CUDA_ERROR_NOT_SUPPORTED";
    default:
      return NULL;
  }
}

EXPORT CUresult
cuGetErrorName (CUresult r, const char **str)
{
  if (str == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  *str = error_name (r);
  return *str ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult
cuGetErrorString (CUresult r, const char **str)
{
  if (str == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  *str = r == CUDA_ERROR_NO_DEVICE ? "no CUDA-capable device is detected" :
      r == CUDA_ERROR_NOT_INITIALIZED ? "initialization error" :
      r == CUDA_ERROR_NOT_SUPPORTED ? "operation not supported" :
      error_name (r);
  return *str ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult
cuGetExportTable (const void **table, const void *id)
{
  (void) id;
  trace ("cuGetExportTable -> CUDA_ERROR_NOT_INITIALIZED");
  if (table)
    *table = NULL;
  return CUDA_ERROR_NOT_INITIALIZED;
}

/* ---- devices that hold contexts (CF_STUB_DEVICES) ---- */

static CUresult
check_device (CUdevice dev)
{
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  return dev >= 0 && dev < devices () ? CUDA_SUCCESS :
      CUDA_ERROR_INVALID_DEVICE;
}

EXPORT CUresult
cuDeviceGet (CUdevice * dev, int ordinal)
{
  CUresult r = check_device (ordinal);

  if (dev == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  if (r == CUDA_SUCCESS)
    *dev = ordinal;
  return r;
}

EXPORT CUresult
cuDeviceGetName (char *name, int len, CUdevice dev)
{
  CUresult r = check_device (dev);

  if (name == NULL || len <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (r == CUDA_SUCCESS)
    snprintf (name, (size_t) len, "cudafilter stub device %d", dev);
  return r;
}

EXPORT CUresult
cuDeviceGetAttribute (int *value, int attribute, CUdevice dev)
{
  CUresult r = check_device (dev);

  if (value == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  if (r != CUDA_SUCCESS)
    return r;
  switch (attribute) {
    case ATTR_TEXTURE_ALIGNMENT:
      *value = 512;
      break;
    case ATTR_COMPUTE_CAPABILITY_MAJOR:
      *value = 9;
      break;
    default:                   /* minor 0, and no optional feature */
      *value = 0;
      break;
  }
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuDeviceGetUuid (unsigned char *uuid, CUdevice dev)
{
  CUresult r = check_device (dev);

  if (uuid == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  if (r == CUDA_SUCCESS) {
    memset (uuid, 0, 16);
    uuid[0] = (unsigned char) (dev + 1);
  }
  return r;
}

EXPORT CUresult
cuDeviceCanAccessPeer (int *can, CUdevice dev, CUdevice peer)
{
  CUresult r = check_device (dev);

  if (can == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  *can = 0;
  return r != CUDA_SUCCESS ? r : check_device (peer);
}

#define CONTEXT_MAGIC 0x43667478u       /* "Cftx" */
#define STACK_DEPTH 64

typedef struct
{
  unsigned int magic;
  CUdevice device;
} StubContext;

/* Each thread's stack of current contexts, as the driver keeps one. */
static __thread StubContext *stack[STACK_DEPTH];
static __thread int depth;

static int
is_context (const StubContext * ctx)
{
  return ctx != NULL && ctx->magic == CONTEXT_MAGIC;
}

EXPORT CUresult
cuCtxCreate_v2 (StubContext ** pctx, unsigned int flags, CUdevice dev)
{
  CUresult r = check_device (dev);
  StubContext *ctx;

  (void) flags;
  if (pctx == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  if (r != CUDA_SUCCESS)
    return r;
  if (depth == STACK_DEPTH)
    return CUDA_ERROR_INVALID_VALUE;
  ctx = calloc (1, sizeof *ctx);
  if (ctx == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  ctx->magic = CONTEXT_MAGIC;
  ctx->device = dev;
  stack[depth++] = ctx;         /* current on this thread, as the driver's */
  *pctx = ctx;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuCtxDestroy_v2 (StubContext * ctx)
{
  if (!is_context (ctx))
    return CUDA_ERROR_INVALID_CONTEXT;
  if (depth > 0 && stack[depth - 1] == ctx)
    depth--;
  ctx->magic = 0;
  free (ctx);
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuCtxPushCurrent_v2 (StubContext * ctx)
{
  if (!is_context (ctx))
    return CUDA_ERROR_INVALID_CONTEXT;
  if (depth == STACK_DEPTH)
    return CUDA_ERROR_INVALID_VALUE;
  stack[depth++] = ctx;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuCtxPopCurrent_v2 (StubContext ** pctx)
{
  if (depth == 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  depth--;
  if (pctx)
    *pctx = stack[depth];
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuCtxGetCurrent (StubContext ** pctx)
{
  if (pctx == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  *pctx = depth > 0 ? stack[depth - 1] : NULL;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuCtxSetCurrent (StubContext * ctx)
{
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (ctx == NULL) {
    if (depth > 0)
      depth--;
    return CUDA_SUCCESS;
  }
  if (!is_context (ctx))
    return CUDA_ERROR_INVALID_CONTEXT;
  if (depth == 0)
    depth = 1;
  stack[depth - 1] = ctx;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuCtxGetDevice (CUdevice * dev)
{
  if (dev == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  if (depth == 0)
    return initialised ? CUDA_ERROR_INVALID_CONTEXT :
        CUDA_ERROR_NOT_INITIALIZED;
  *dev = stack[depth - 1]->device;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuCtxSynchronize (void)
{
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  return depth > 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/* GStreamer 1.26 reads and sets the GPU threads' stack size. */
static size_t limits[16];

EXPORT CUresult
cuCtxGetLimit (size_t *value, int limit)
{
  if (value == NULL || limit < 0 || limit >= 16)
    return CUDA_ERROR_INVALID_VALUE;
  if (depth == 0)
    return initialised ? CUDA_ERROR_INVALID_CONTEXT :
        CUDA_ERROR_NOT_INITIALIZED;
  *value = limits[limit] ? limits[limit] : 1024;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuCtxSetLimit (int limit, size_t value)
{
  if (limit < 0 || limit >= 16)
    return CUDA_ERROR_INVALID_VALUE;
  if (depth == 0)
    return initialised ? CUDA_ERROR_INVALID_CONTEXT :
        CUDA_ERROR_NOT_INITIALIZED;
  limits[limit] = value;
  return CUDA_SUCCESS;
}

/* ---- everything else ---- */

/* Before a successful cuInit nothing works; after it, only the above. */
static CUresult
unavailable (void)
{
  return initialised ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_NOT_INITIALIZED;
}

static CUresult
not_initialized (void)
{
  return CUDA_ERROR_NOT_INITIALIZED;
}

EXPORT CUresult cuGetProcAddress (const char *symbol, void **pfn,
    int version, cuuint64_t flags);

/* The runtime's view: the driver is there, no device is. */
static void *
lookup (const char *symbol)
{
  static const struct
  {
    const char *name;
    void *fn;
  } own[] = {
    {"cuInit", (void *) runtime_cuInit},
    {"cuDriverGetVersion", (void *) cuDriverGetVersion},
    {"cuGetErrorName", (void *) cuGetErrorName},
    {"cuGetErrorString", (void *) cuGetErrorString},
    {"cuGetExportTable", (void *) cuGetExportTable},
    {"cuGetProcAddress", (void *) cuGetProcAddress},
  };
  size_t i;

  for (i = 0; i < sizeof own / sizeof own[0]; i++)
    if (strcmp (symbol, own[i].name) == 0)
      return own[i].fn;
  return strncmp (symbol, "cu", 2) == 0 ? (void *) not_initialized : NULL;
}

EXPORT CUresult
cuGetProcAddress (const char *symbol, void **pfn, int version,
    cuuint64_t flags)
{
  (void) version;
  (void) flags;
  if (symbol == NULL || pfn == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  if (getenv ("CF_STUB_TRACE"))
    fprintf (stderr, "stub-libcuda: cuGetProcAddress (%s)\n", symbol);
  *pfn = lookup (symbol);
  return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

/* symbol_status: 0 = found, 1 = no such symbol. */
EXPORT CUresult
cuGetProcAddress_v2 (const char *symbol, void **pfn, int version,
    cuuint64_t flags, int *symbol_status)
{
  CUresult r = cuGetProcAddress (symbol, pfn, version, flags);

  if (symbol_status)
    *symbol_status = r == CUDA_SUCCESS ? 0 : 1;
  return r;
}

/* The other entry points libgstcuda-1.0 resolves by name when it loads the
 * driver library (1.22 to 1.28): all present, none usable. */
#define STUB(name) EXPORT CUresult name (void) { return unavailable (); }
STUB (cuCtxDisablePeerAccess)
STUB (cuCtxEnablePeerAccess)
STUB (cuDestroyExternalMemory)
STUB (cuDestroyExternalSemaphore)
STUB (cuDevicePrimaryCtxRelease_v2)
STUB (cuDevicePrimaryCtxRetain)
STUB (cuEventCreate)
STUB (cuEventDestroy_v2)
STUB (cuEventQuery)
STUB (cuEventRecord)
STUB (cuEventSynchronize)
STUB (cuExternalMemoryGetMappedBuffer)
STUB (cuExternalMemoryGetMappedMipmappedArray)
STUB (cuGLGetDevices_v2)
STUB (cuGraphicsGLRegisterBuffer)
STUB (cuGraphicsGLRegisterImage)
STUB (cuGraphicsMapResources)
STUB (cuGraphicsResourceGetMappedPointer_v2)
STUB (cuGraphicsResourceSetMapFlags_v2)
STUB (cuGraphicsSubResourceGetMappedArray)
STUB (cuGraphicsUnmapResources)
STUB (cuGraphicsUnregisterResource)
STUB (cuImportExternalMemory)
STUB (cuImportExternalSemaphore)
STUB (cuIpcCloseMemHandle)
STUB (cuIpcGetEventHandle)
STUB (cuIpcGetMemHandle)
STUB (cuIpcOpenEventHandle)
STUB (cuIpcOpenMemHandle)
STUB (cuIpcOpenMemHandle_v2)
STUB (cuLaunchKernel)
STUB (cuMemAddressFree)
STUB (cuMemAddressReserve)
STUB (cuMemAllocAsync)
STUB (cuMemAllocFromPoolAsync)
STUB (cuMemAllocHost_v2)
STUB (cuMemAllocPitch_v2)
STUB (cuMemAlloc_v2)
STUB (cuMemCreate)
STUB (cuMemExportToShareableHandle)
STUB (cuMemFreeAsync)
STUB (cuMemFreeHost)
STUB (cuMemFree_v2)
STUB (cuMemGetAccess)
STUB (cuMemGetAllocationGranularity)
STUB (cuMemGetAllocationPropertiesFromHandle)
STUB (cuMemHostRegister_v2)
STUB (cuMemHostUnregister)
STUB (cuMemImportFromShareableHandle)
STUB (cuMemMap)
STUB (cuMemPoolCreate)
STUB (cuMemPoolDestroy)
STUB (cuMemPoolGetAttribute)
STUB (cuMemPoolSetAttribute)
STUB (cuMemRelease)
STUB (cuMemRetainAllocationHandle)
STUB (cuMemSetAccess)
STUB (cuMemUnmap)
STUB (cuMemcpy2DAsync_v2)
STUB (cuMemcpy2D_v2)
STUB (cuMemcpyDtoDAsync_v2)
STUB (cuMemcpyDtoD_v2)
STUB (cuMemcpyDtoHAsync_v2)
STUB (cuMemcpyDtoH_v2)
STUB (cuMemcpyHtoDAsync_v2)
STUB (cuMemcpyHtoD_v2)
STUB (cuMemsetD2D16Async)
STUB (cuMemsetD2D16_v2)
STUB (cuMemsetD2D32Async)
STUB (cuMemsetD2D32_v2)
STUB (cuMemsetD2D8Async)
STUB (cuMemsetD2D8_v2)
STUB (cuModuleGetFunction)
STUB (cuModuleLoadData)
STUB (cuModuleUnload)
STUB (cuPointerGetAttribute)
STUB (cuSignalExternalSemaphoresAsync)
STUB (cuStreamCreate)
STUB (cuStreamDestroy)
STUB (cuStreamDestroy_v2)
STUB (cuStreamSynchronize)
STUB (cuTexObjectCreate)
STUB (cuTexObjectDestroy)
STUB (cuWaitExternalSemaphoresAsync)
