/* reduce.c: avx512 kernels (placeholder until the kernels land). */
#include "avx512.h"
