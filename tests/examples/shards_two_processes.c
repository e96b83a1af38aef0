/* SPDX-License-Identifier: MIT */
/* A ReduceSum over shards summarised by two processes: each sums its own
 * half of a 1-D f32 tensor (the cut on the grid), the child sends its
 * summary's bytes through a pipe, the parent combines the two in order and
 * finishes: bit for bit one axial_reduce_sum of the whole tensor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <axial.h>

enum { N = 1 << 20 };

int main(void) {
    float *x = malloc(sizeof(float) * N);
    for (size_t i = 0; i < N; i++)
        x[i] = (float)((i * 2654435761u) % 10007) * 1e-3f;
    const int64_t shape[1] = {N}, axes[1] = {0};
    const axial_shards sh = {AXIAL_OP_REDUCE_SUM, AXIAL_F32, 1, shape, axes, 1, 0};
    int64_t axis, grid;
    if (axial_shard_grid(&sh, &axis, &grid) != AXIAL_OK)
        return 1;
    const int64_t cut = N / 2 / grid * grid; /* the halves meet on the grid */

    int fd[2];
    if (pipe(fd) != 0)
        return 1;
    const pid_t child = fork();
    if (child == 0) { /* the second half's summary, as bytes into the pipe */
        size_t size;
        axial_shard_summary_size(&sh, cut, N - cut, &size);
        unsigned char *b = malloc(size);
        if (axial_shard_summarize(&sh, x + cut, cut, N - cut, b, size) != AXIAL_OK)
            _exit(1);
        const ssize_t wrote = write(fd[1], b, size);
        _exit(wrote == (ssize_t)size ? 0 : 1);
    }
    size_t za, zb, z;
    axial_shard_summary_size(&sh, 0, cut, &za);
    axial_shard_summary_size(&sh, cut, N - cut, &zb);
    unsigned char *a = malloc(za), *b = malloc(zb), *ab = malloc(za + zb);
    if (axial_shard_summarize(&sh, x, 0, cut, a, za) != AXIAL_OK)
        return 1;
    size_t got = 0;
    while (got < zb) {
        const ssize_t r = read(fd[0], b + got, zb - got);
        if (r <= 0)
            return 1;
        got += (size_t)r;
    }
    int status;
    waitpid(child, &status, 0);
    float sum, one;
    if (axial_shard_combine(a, za, b, zb, ab, za + zb, &z) != AXIAL_OK ||
        axial_shard_finish(&sh, ab, z, &sum) != AXIAL_OK) {
        fprintf(stderr, "axial: %s\n", axial_last_error());
        return 1;
    }
    axial_reduce_sum(AXIAL_F32, x, &one, 1, shape, axes, 1, 0);
    printf("grid %lld, cut at %lld: %.9g, one call %.9g: %s\n", (long long)grid,
           (long long)cut, sum, one, memcmp(&sum, &one, 4) == 0 ? "the same bits" : "DIFFERENT");
    free(x);
    free(a);
    free(b);
    free(ab);
    return memcmp(&sum, &one, 4) == 0 ? 0 : 1;
}
