/* SPDX-License-Identifier: MIT */
/* scalar.h: declarations of the scalar reference kernels (see kernels.h). */
#ifndef AXIAL_SCALAR_H
#define AXIAL_SCALAR_H

#include "kernels.h"
#include "types.h"

AXIAL_DECLARE_KERNELS(scalar)

#endif /* AXIAL_SCALAR_H */
