/* SPDX-License-Identifier: MIT */
/* A CumSum over a signal that arrives in windows: 2 channels, windows of
 * 100 to 700 samples, each window's outputs written as it arrives.  The
 * outputs, put together, are bit for bit one axial_cumsum of the whole
 * signal, and the state crosses a process boundary halfway as bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <axial.h>

enum { CH = 2, LEN = 50000 };

int main(void) {
    float *x = malloc(sizeof(float) * CH * LEN), *y = malloc(sizeof(float) * CH * LEN);
    float *one = malloc(sizeof(float) * CH * LEN);
    for (size_t i = 0; i < (size_t)CH * LEN; i++)
        x[i] = (float)((i * 7919) % 1000) / 1000.0f - 0.5f;
    const int64_t whole[2] = {LEN, CH}; /* time along axis 0, channels after it */
    if (axial_cumsum(AXIAL_F32, x, one, 2, whole, 0, 0) != AXIAL_OK)
        return 1;

    /* The state: the window shape with the time axis left free (0 here). */
    const int64_t window[2] = {0, CH};
    axial_stream *s;
    if (axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 2, window, 0, 0, &s) != AXIAL_OK)
        return 1;
    int64_t t = 0, w = 100;
    while (t < LEN) {
        const int64_t n = t + w <= LEN ? w : LEN - t, shape[2] = {n, CH};
        if (axial_stream_push(s, AXIAL_F32, x + t * CH, y + t * CH, 2, shape) != AXIAL_OK) {
            fprintf(stderr, "axial: %s\n", axial_last_error());
            return 1;
        }
        t += n;
        w = w % 700 + 37; /* any lengths, 0 included */
        if (t >= LEN / 2 && t - n < LEN / 2) {
            /* halfway: the state as bytes (to a file, a socket, another
             * process), and back into a new stream */
            const size_t size = axial_stream_state_size(s);
            unsigned char *bytes = malloc(size);
            if (axial_stream_export(s, bytes, size) != AXIAL_OK)
                return 1;
            axial_stream_destroy(s);
            if (axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 2, window, 0, 0, &s) != AXIAL_OK ||
                axial_stream_import(s, bytes, size) != AXIAL_OK)
                return 1;
            free(bytes);
        }
    }
    const int same = memcmp(y, one, sizeof(float) * CH * LEN) == 0;
    printf("%lld samples in windows: %s the one call's bits\n",
           (long long)axial_stream_length(s), same ? "exactly" : "NOT");
    axial_stream_destroy(s);
    free(x);
    free(y);
    free(one);
    return same ? 0 : 1;
}
