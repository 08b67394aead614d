/* cudafilter: the enum types of the element's properties.  The nicks are the
 * public interface (gst-launch-1.0 syntax); keep them stable. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudafilter-enums.h"
#include "cf-spec.h"

G_STATIC_ASSERT ((int) GST_CUDA_FILTER_MODE_CUSTOM == (int) CF_FILTER_CUSTOM);
G_STATIC_ASSERT ((int) GST_CUDA_FILTER_MODE_SHARPEN == (int) CF_FILTER_SHARPEN);
G_STATIC_ASSERT ((int) GST_CUDA_FILTER_BORDER_CONSTANT ==
    (int) CF_BORDER_CONSTANT);
G_STATIC_ASSERT ((int) GST_CUDA_FILTER_BORDER_WRAP == (int) CF_BORDER_WRAP);

#define DEFINE_ENUM_TYPE(func, TypeName, values)                     \
GType                                                                \
func (void)                                                          \
{                                                                    \
  static gsize type_id = 0;                                          \
                                                                     \
  if (g_once_init_enter (&type_id)) {                                \
    GType t = g_enum_register_static (TypeName, values);             \
    g_once_init_leave (&type_id, t);                                 \
  }                                                                  \
  return (GType) type_id;                                            \
}

static const GEnumValue filter_modes[] = {
  {GST_CUDA_FILTER_MODE_GAUSSIAN, "Gaussian blur (sigma, sigma-y, kernel-size)",
      "gaussian"},
  {GST_CUDA_FILTER_MODE_BOX, "Box blur: mean of kernel-size x kernel-size",
      "box"},
  {GST_CUDA_FILTER_MODE_SOBEL, "Sobel gradient magnitude", "sobel"},
  {GST_CUDA_FILTER_MODE_SOBEL_X, "Absolute Sobel derivative in x", "sobel-x"},
  {GST_CUDA_FILTER_MODE_SOBEL_Y, "Absolute Sobel derivative in y", "sobel-y"},
  {GST_CUDA_FILTER_MODE_SCHARR, "Scharr 3x3 gradient magnitude", "scharr"},
  {GST_CUDA_FILTER_MODE_LAPLACIAN, "Absolute Laplacian", "laplacian"},
  {GST_CUDA_FILTER_MODE_SHARPEN, "Unsharp mask (sigma, kernel-size, amount)",
      "sharpen"},
  {GST_CUDA_FILTER_MODE_CUSTOM, "User kernel from the kernel property",
      "custom"},
  {0, NULL, NULL}
};

static const GEnumValue border_modes[] = {
  {GST_CUDA_FILTER_BORDER_REFLECT101,
      "Reflect without repeating the edge: gfedcb|abcdefg", "reflect101"},
  {GST_CUDA_FILTER_BORDER_REPLICATE, "Repeat the edge: aaaaaa|abcdefg",
      "replicate"},
  {GST_CUDA_FILTER_BORDER_REFLECT, "Reflect with the edge: fedcba|abcdef",
      "reflect"},
  {GST_CUDA_FILTER_BORDER_WRAP, "Wrap around: cdefgh|abcdefgh", "wrap"},
  {GST_CUDA_FILTER_BORDER_CONSTANT, "Constant border-value outside the frame",
      "constant"},
  {0, NULL, NULL}
};

static const GEnumValue backends[] = {
  {GST_CUDA_FILTER_BACKEND_AUTO,
      "CUDA when a device is usable, else the CPU", "auto"},
  {GST_CUDA_FILTER_BACKEND_CUDA, "CUDA device (error without one)", "cuda"},
  {GST_CUDA_FILTER_BACKEND_CPU, "CPU", "cpu"},
  {0, NULL, NULL}
};

static const GEnumValue planes[] = {
  {GST_CUDA_FILTER_PLANES_ALL, "Filter every colour component", "all"},
  {GST_CUDA_FILTER_PLANES_LUMA,
      "Filter luma only; YUV chroma passes through", "luma"},
  {0, NULL, NULL}
};

DEFINE_ENUM_TYPE (gst_cuda_filter_mode_get_type, "GstCudaFilterMode",
    filter_modes);
DEFINE_ENUM_TYPE (gst_cuda_filter_border_get_type, "GstCudaFilterBorder",
    border_modes);
DEFINE_ENUM_TYPE (gst_cuda_filter_backend_get_type, "GstCudaFilterBackend",
    backends);
DEFINE_ENUM_TYPE (gst_cuda_filter_planes_get_type, "GstCudaFilterPlanes",
    planes);
