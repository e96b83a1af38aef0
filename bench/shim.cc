/* SPDX-License-Identifier: MIT */
// shim.cc: the C API of shim.h over Google Benchmark (Debian's libbenchmark).
#include "shim.h"

#include <benchmark/benchmark.h>

struct axb_state {
    benchmark::State st;
};

static benchmark::State &S(axb_state *s) { return *reinterpret_cast<benchmark::State *>(s); }

extern "C" int axb_register(const char *name, axb_fn fn, void *arg) {
    // No UseRealTime(): it would append "/real_time" to every name, and the
    // names are the contract ({op}/{type}/{impl}/{case}).  Everything runs on
    // the calling thread, so CPU and real time agree; the JSON has both.
    benchmark::internal::Benchmark *b =
        benchmark::RegisterBenchmark(name, [fn, arg](benchmark::State &st) {
            fn(reinterpret_cast<axb_state *>(&st), arg);
        });
    return b ? 0 : -1;
}

extern "C" size_t axb_iterations(axb_state *s) { return (size_t)S(s).max_iterations; }

extern "C" int axb_batch(axb_state *s, size_t n) {
    return S(s).KeepRunningBatch((benchmark::IterationCount)n) ? 1 : 0;
}

extern "C" void axb_set_bytes(axb_state *s, double b) {
    S(s).SetBytesProcessed((int64_t)(b * (double)S(s).iterations()));
}

extern "C" void axb_set_items(axb_state *s, double i) {
    S(s).SetItemsProcessed((int64_t)(i * (double)S(s).iterations()));
}

extern "C" void axb_counter(axb_state *s, const char *name, double value) {
    S(s).counters[name] = value;
}

extern "C" void axb_label(axb_state *s, const char *label) { S(s).SetLabel(label); }

extern "C" void axb_skip(axb_state *s, const char *message) { S(s).SkipWithError(message); }

extern "C" void axb_context(const char *key, const char *value) {
    benchmark::AddCustomContext(key, value);
}

extern "C" int axb_main(int argc, char **argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
