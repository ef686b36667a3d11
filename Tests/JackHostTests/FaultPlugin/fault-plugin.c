// A plug-in that misbehaves on command, for the isolation tests: `urn:detent:test:faults`
// passes its input through times `gain`, and in a run of at least one frame does what its
// `fault` control says: 1 dereferences a null pointer (SIGSEGV), 2 aborts (SIGABRT), 3
// spins for ever, 4 exits with status 3; 5 spins for ever in any run, one of no frames too
// (a host's first run, before the audio: a plug-in that hangs while it starts); 6 puts out
// 1e30 (absurd output); 7 takes 400 ms over each run (slow, not hung).
#include <lv2/core/lv2.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
    const float *in;
    float *out;
    const float *gain;
    const float *fault;
} Faults;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *f) {
    (void)d, (void)rate, (void)path, (void)f;
    return calloc(1, sizeof(Faults));
}

static void connect_port(LV2_Handle h, uint32_t port, void *data) {
    Faults *p = h;
    switch (port) {
    case 0: p->in = data; break;
    case 1: p->out = data; break;
    case 2: p->gain = data; break;
    case 3: p->fault = data; break;
    }
}

static void run(LV2_Handle h, uint32_t n) {
    Faults *p = h;
    if (p->fault && (int)(*p->fault + 0.5f) == 5) {
        for (volatile unsigned long i = 0;; i++) {}
    }
    if (n > 0) {
        int fault = p->fault ? (int)(*p->fault + 0.5f) : 0;
        if (fault == 1) {
            volatile int *nowhere = NULL;
            *nowhere = 1;
        } else if (fault == 2) {
            abort();
        } else if (fault == 3) {
            for (volatile unsigned long i = 0;; i++) {}
        } else if (fault == 4) {
            _exit(3);
        } else if (fault == 7) {
            usleep(400000);
        }
    }
    float g = p->gain ? *p->gain : 1;
    if (p->fault && (int)(*p->fault + 0.5f) == 6) g = 1e30f;
    for (uint32_t i = 0; i < n; i++) p->out[i] = p->in[i] * g;
}

static void cleanup(LV2_Handle h) { free(h); }

static const LV2_Descriptor descriptor = {"urn:detent:test:faults", instantiate, connect_port, NULL, run, NULL, cleanup, NULL};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) { return index == 0 ? &descriptor : NULL; }
