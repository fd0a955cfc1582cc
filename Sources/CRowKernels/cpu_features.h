#ifndef GRAPH_CPU_FEATURES_H
#define GRAPH_CPU_FEATURES_H

// Run-time CPU checks shared by the row kernels (a package used as a dependency cannot pass
// -mavx2, so wide paths sit behind target attributes and one of these checks).

#if defined(__x86_64__) || defined(__i386__)
/// 1 when the CPU has `feature` (a string literal for __builtin_cpu_supports), checked once per
/// file that includes this header; racing first calls store the same answer.
#define GRAPH_CPU_CHECK(feature)                                                                               \
    static int state = -1;                                                                                   \
    int known = __atomic_load_n(&state, __ATOMIC_RELAXED);                                                   \
    if (known < 0) {                                                                                         \
        __builtin_cpu_init();                                                                                \
        known = __builtin_cpu_supports(feature) ? 1 : 0;                                                     \
        __atomic_store_n(&state, known, __ATOMIC_RELAXED);                                                   \
    }                                                                                                        \
    return known;

static inline int graph_cpu_has_avx(void) { GRAPH_CPU_CHECK("avx") }
static inline int graph_cpu_has_avx2(void) { GRAPH_CPU_CHECK("avx2") }
static inline int graph_cpu_has_fma(void) { GRAPH_CPU_CHECK("fma") }
static inline int graph_cpu_has_avx512f(void) { GRAPH_CPU_CHECK("avx512f") }
static inline int graph_cpu_has_avx512bw(void) { GRAPH_CPU_CHECK("avx512bw") }
static inline int graph_cpu_has_avx512vbmi(void) { GRAPH_CPU_CHECK("avx512vbmi") }
static inline int graph_cpu_has_avx512vnni(void) { GRAPH_CPU_CHECK("avx512vnni") }
#undef GRAPH_CPU_CHECK
#else
static inline int graph_cpu_has_avx(void) { return 0; }
static inline int graph_cpu_has_avx2(void) { return 0; }
static inline int graph_cpu_has_fma(void) { return 0; }
static inline int graph_cpu_has_avx512f(void) { return 0; }
static inline int graph_cpu_has_avx512bw(void) { return 0; }
static inline int graph_cpu_has_avx512vbmi(void) { return 0; }
static inline int graph_cpu_has_avx512vnni(void) { return 0; }
#endif

/// Byte permutes over 512-bit vectors (the paths compiled for avx512f, avx512bw, avx512vbmi).
static inline int graph_cpu_has_avx512_byte_permutes(void) { return graph_cpu_has_avx512bw() && graph_cpu_has_avx512vbmi(); }
/// 16-bit dot products over 512-bit vectors (the paths compiled for avx512f, avx512bw, avx512vnni).
static inline int graph_cpu_has_avx512_dot_products(void) { return graph_cpu_has_avx512bw() && graph_cpu_has_avx512vnni(); }

#endif
