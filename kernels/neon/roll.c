/* placeholder for kernels/neon/roll.c (branch neon-reduce only; the lead drops it at merge) */
