/* placeholder for kernels/neon/cumsum.c (branch neon-reduce only; the lead drops it at merge) */
