/* placeholder: the neon reduce kernels are written on their own branch */
