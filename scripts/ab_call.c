/* SPDX-License-Identifier: MIT */
/*
 * ab_call.c: one call's time in two builds of libaxial, alternated.
 *   cc -O2 -o /tmp/ab_call scripts/ab_call.c -ldl
 *   /tmp/ab_call OLD/libaxial.so NEW/libaxial.so OP DTYPE SHAPE AXES [FLAGS]
 * OP: cumsum, reduce, logcumsumexp, reduce_logsumexp or roll; DTYPE: the axial_dtype value (1 f32, 2 f64,
 * 3 f16, 4 bf16, 5 i8, 7 i16, 9 i32, 11 i64); SHAPE: d0xd1[x...]; AXES: a,b or all (cumsum takes the
 * first); FLAGS: the flags, or Roll's shifts s,t (3 on each axis if none).  A call that fails stops it
 * with its status.  15 rounds, each timing both libraries (the order
 * alternating) over repeated calls for at least 20 ms; prints the medians
 * and new/old.  AB_THREADS=T: the _ex form on each library's own pool of T
 * threads (wall time).  For the shapes the benchmark matrix does not have (integer
 * and f16/bf16 reductions, narrow columns); scripts/ab.sh is the matrix A/B.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
typedef int (*rs_t)(int, const void *, void *, size_t, const int64_t *, const int64_t *, size_t, unsigned);
typedef int (*cs_t)(int, const void *, void *, size_t, const int64_t *, int64_t, unsigned);
typedef int (*rsx_t)(int, const void *, void *, size_t, const int64_t *, const int64_t *, size_t, unsigned, void *);
typedef int (*csx_t)(int, const void *, void *, size_t, const int64_t *, int64_t, unsigned, void *);
typedef int (*rl_t)(int, const void *, void *, size_t, const int64_t *, const int64_t *, size_t, const int64_t *, size_t);
typedef int (*rlx_t)(int, const void *, void *, size_t, const int64_t *, const int64_t *, size_t, const int64_t *, size_t, void *);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char **argv) {
    if (argc < 7) {
        fprintf(stderr, "usage: %s OLD.so NEW.so cumsum|reduce|logcumsumexp|reduce_logsumexp|roll DTYPE d0xd1[x...] a[,b]|all [FLAGS|SHIFTS]\n", argv[0]);
        return 2;
    }
    void *h[2] = {dlopen(argv[1], RTLD_NOW | RTLD_LOCAL), dlopen(argv[2], RTLD_NOW | RTLD_LOCAL)};
    if (!h[0] || !h[1]) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    const char *op = strcmp(argv[3], "reduce") == 0 ? "reduce_sum" : argv[3];
    int cum = strstr(op, "cumsum") != NULL, roll = strcmp(op, "roll") == 0, dt = atoi(argv[4]);
    int64_t shape[4]; size_t rank = 0; char *s = argv[5];
    while (*s && rank < 4) { shape[rank++] = strtoll(s, &s, 10); if (*s == 'x') s++; }
    int64_t axes[4]; size_t na = 0; s = argv[6];
    if (strcmp(s, "all") == 0) for (; na < rank; na++) axes[na] = (int64_t)na;
    while (*s && na < 4 && strcmp(s, "all") != 0) { axes[na++] = strtoll(s, &s, 10); if (*s == ',') s++; }
    unsigned flags = argc > 7 ? atoi(argv[7]) : 0;
    int64_t shifts[4] = {3, 3, 3, 3}; size_t ns = 0;
    for (s = argc > 7 ? argv[7] : ""; roll && *s && ns < 4;) { shifts[ns++] = strtoll(s, &s, 10); if (*s == ',') s++; }
    size_t N = 1; for (size_t i = 0; i < rank; i++) N *= shape[i];
    size_t bytes = N * 8 + 64;
    const size_t yoff = getenv("AB_YOFF") ? (size_t)atoi(getenv("AB_YOFF")) : 0; /* y's offset: 4K aliasing with x */
    unsigned char *x = aligned_alloc(64, bytes), *y = (unsigned char *)aligned_alloc(64, bytes + 4096) + yoff;
    for (size_t i = 0; i < bytes; i++) x[i] = (dt <= 4) ? (i % 2 ? 0x3c : 0x00) : rand();
    if (dt == 1) for (size_t i = 0; i < N; i++) ((float *)x)[i] = (float)(i % 7);
    if (dt == 2) for (size_t i = 0; i < N; i++) ((double *)x)[i] = (double)(i % 7);
    void *f[2], *ex[2] = {NULL, NULL};
    char name[64];
    const int threads = getenv("AB_THREADS") ? atoi(getenv("AB_THREADS")) : 0;
    snprintf(name, sizeof name, threads ? "axial_%s_ex" : "axial_%s", op);
    for (int j = 0; j < 2; j++) {
        if (!(f[j] = dlsym(h[j], name))) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    }
    double best[2], med[2][15];
    for (int r = 0; r < 15; r++)
        for (int jj = 0; jj < 2; jj++) {
            int j = (r & 1) ? 1 - jj : jj;
            void *pool = NULL; /* each library's own pool, only while it runs (idle workers spin) */
            if (threads) {
                ((int (*)(size_t, void **))dlsym(h[j], "axial_pool_create"))((size_t)threads, &pool);
                ex[j] = ((void *(*)(void *))dlsym(h[j], "axial_pool_executor"))(pool);
            }
            int reps = 0; double t0 = now(), t;
            do {
                int rc;
                if (threads && roll) rc = ((rlx_t)f[j])(dt, x, y, rank, shape, shifts, na, axes, na, ex[j]);
                else if (roll) rc = ((rl_t)f[j])(dt, x, y, rank, shape, shifts, na, axes, na);
                else if (threads && cum) rc = ((csx_t)f[j])(dt, x, y, rank, shape, axes[0], flags, ex[j]);
                else if (threads) rc = ((rsx_t)f[j])(dt, x, y, rank, shape, axes, na, flags, ex[j]);
                else if (cum) rc = ((cs_t)f[j])(dt, x, y, rank, shape, axes[0], flags);
                else rc = ((rs_t)f[j])(dt, x, y, rank, shape, axes, na, flags);
                if (rc) { fprintf(stderr, "%s: status %d from %s\n", argv[1 + j], rc, name); return 1; }
                reps++; t = now() - t0;
            } while (t < 0.02);
            med[j][r] = t / reps;
            if (threads)
                ((void (*)(void *))dlsym(h[j], "axial_pool_destroy"))(pool);
        }
    for (int j = 0; j < 2; j++) { /* median */
        for (int a = 0; a < 15; a++) for (int b = a + 1; b < 15; b++) if (med[j][b] < med[j][a]) { double q = med[j][a]; med[j][a] = med[j][b]; med[j][b] = q; }
        best[j] = med[j][7];
    }
    printf("%s %s %s axes %s: old %.2f us new %.2f us new/old %.3f\n", argv[3], argv[4], argv[5], argv[6], best[0] * 1e6, best[1] * 1e6, best[1] / best[0]);
    return 0;
}
