/* A libcuda.so.1 for a machine with the NVIDIA driver's user-space library
 * but no kernel driver or device (a container that mounts the driver
 * libraries without /dev/nvidia*): cuInit fails with CUDA_ERROR_NO_DEVICE
 * and every other entry point, found by name or through cuGetProcAddress,
 * answers CUDA_ERROR_NOT_INITIALIZED.  The CUDA runtime and libgstcuda both
 * load it, as they would the real driver library.
 *
 * CF_STUB_TRACE=1 prints each entry point the first time it is asked for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long cuuint64_t;

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_NOT_FOUND 500

#define EXPORT __attribute__ ((visibility ("default")))

static void
trace (const char *what)
{
  if (getenv ("CF_STUB_TRACE"))
    fprintf (stderr, "stub-libcuda: %s\n", what);
}

EXPORT CUresult
cuInit (unsigned int flags)
{
  (void) flags;
  trace ("cuInit -> CUDA_ERROR_NO_DEVICE");
  return CUDA_ERROR_NO_DEVICE;
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
    *count = 0;
  return CUDA_ERROR_NOT_INITIALIZED;
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
    case CUDA_ERROR_NOT_FOUND:
      return "CUDA_ERROR_NOT_FOUND";
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

/* What every other entry point does before a successful cuInit. */
static CUresult
not_initialized (void)
{
  return CUDA_ERROR_NOT_INITIALIZED;
}

EXPORT CUresult cuGetProcAddress (const char *symbol, void **pfn,
    int version, cuuint64_t flags);

static void *
lookup (const char *symbol)
{
  static const struct
  {
    const char *name;
    void *fn;
  } own[] = {
    {"cuInit", (void *) cuInit},
    {"cuDriverGetVersion", (void *) cuDriverGetVersion},
    {"cuDeviceGetCount", (void *) cuDeviceGetCount},
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

/* The entry points libgstcuda-1.0 resolves by name when it loads the
 * driver library: all present, all uninitialised. */
#define STUB(name) EXPORT CUresult name (void) { return not_initialized (); }
STUB (cuCtxCreate_v2)
STUB (cuCtxDestroy_v2)
STUB (cuCtxDisablePeerAccess)
STUB (cuCtxEnablePeerAccess)
STUB (cuCtxGetCurrent)
STUB (cuCtxGetDevice)
STUB (cuCtxPopCurrent_v2)
STUB (cuCtxPushCurrent_v2)
STUB (cuCtxSetCurrent)
STUB (cuCtxSynchronize)
STUB (cuDeviceCanAccessPeer)
STUB (cuDeviceGet)
STUB (cuDeviceGetAttribute)
STUB (cuDeviceGetName)
STUB (cuDevicePrimaryCtxRetain)
STUB (cuDevicePrimaryCtxRelease_v2)
STUB (cuEventCreate)
STUB (cuEventDestroy_v2)
STUB (cuEventQuery)
STUB (cuEventRecord)
STUB (cuEventSynchronize)
STUB (cuGLGetDevices_v2)
STUB (cuGraphicsGLRegisterBuffer)
STUB (cuGraphicsGLRegisterImage)
STUB (cuGraphicsMapResources)
STUB (cuGraphicsResourceGetMappedPointer_v2)
STUB (cuGraphicsResourceSetMapFlags_v2)
STUB (cuGraphicsSubResourceGetMappedArray)
STUB (cuGraphicsUnmapResources)
STUB (cuGraphicsUnregisterResource)
STUB (cuIpcCloseMemHandle)
STUB (cuIpcGetEventHandle)
STUB (cuIpcGetMemHandle)
STUB (cuIpcOpenEventHandle)
STUB (cuIpcOpenMemHandle_v2)
STUB (cuLaunchKernel)
STUB (cuMemAddressFree)
STUB (cuMemAddressReserve)
STUB (cuMemAllocHost_v2)
STUB (cuMemAllocPitch_v2)
STUB (cuMemAlloc_v2)
STUB (cuMemCreate)
STUB (cuMemExportToShareableHandle)
STUB (cuMemFreeHost)
STUB (cuMemFree_v2)
STUB (cuMemGetAllocationGranularity)
STUB (cuMemGetAllocationPropertiesFromHandle)
STUB (cuMemImportFromShareableHandle)
STUB (cuMemMap)
STUB (cuMemRelease)
STUB (cuMemRetainAllocationHandle)
STUB (cuMemSetAccess)
STUB (cuMemUnmap)
STUB (cuMemcpy2DAsync_v2)
STUB (cuMemcpy2D_v2)
STUB (cuMemcpyDtoHAsync_v2)
STUB (cuMemcpyHtoDAsync_v2)
STUB (cuMemsetD2D8Async)
STUB (cuMemsetD2D16Async)
STUB (cuMemsetD2D32Async)
STUB (cuModuleGetFunction)
STUB (cuModuleLoadData)
STUB (cuModuleUnload)
STUB (cuStreamCreate)
STUB (cuStreamDestroy)
STUB (cuStreamSynchronize)
STUB (cuTexObjectCreate)
STUB (cuTexObjectDestroy)
STUB (cuMemHostRegister_v2)
STUB (cuMemHostUnregister)
STUB (cuPointerGetAttribute)
