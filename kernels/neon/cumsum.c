/* placeholder: the neon cumsum kernels are written on their own branch */
