/* reduce.c: avx2 kernels (placeholder until the kernels land). */
#include "avx2.h"
