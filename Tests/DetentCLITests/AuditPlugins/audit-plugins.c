/*
 * Three LV2 plug-ins for the real-time audit's tests (`detent plugins --check`), each with one
 * audio input, one audio output and one control input (a gain), built by the tests into an
 * LV2 bundle in their temporary folder:
 *
 *   urn:detent:test:copies        its run() copies the input times the gain: real-time safe;
 *   urn:detent:test:allocates     its run() also takes and gives back memory, every time;
 *   urn:detent:test:allocates-once  its run() takes memory the first time only (a late
 *                                 allocation many plug-ins make);
 *   urn:detent:test:crashes       its tenth run() dies of SIGSEGV.
 *   urn:detent:test:absurd        copies too, but every hundredth sample it writes is 6e32 (a
 *                                 finite value no sound has, as cmt's bf2cube writes at times).
 *
 * Each allocation's pointer is kept in a volatile global, so the compiler cannot leave the
 * calls out.
 */
#include <lv2/core/lv2.h>
#include <signal.h>
#include <stdlib.h>

typedef struct {
    const float *in;
    float *out;
    const float *gain;
    void *scratch;
    unsigned runs;
} Plugin;

void *volatile detent_audit_kept;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *f) {
    (void)d; (void)rate; (void)path; (void)f;
    return calloc(1, sizeof(Plugin));
}

static void connect_port(LV2_Handle handle, uint32_t port, void *data) {
    Plugin *p = handle;
    if (port == 0) p->in = data;
    if (port == 1) p->out = data;
    if (port == 2) p->gain = data;
}

static void copy(Plugin *p, uint32_t frames) {
    for (uint32_t i = 0; i < frames; i++) p->out[i] = p->in[i] * *p->gain;
}

static void run_copies(LV2_Handle handle, uint32_t frames) { copy(handle, frames); }

static void run_allocates(LV2_Handle handle, uint32_t frames) {
    detent_audit_kept = malloc(64 + frames);
    free(detent_audit_kept);
    copy(handle, frames);
}

static void run_allocates_once(LV2_Handle handle, uint32_t frames) {
    Plugin *p = handle;
    if (!p->scratch) detent_audit_kept = p->scratch = malloc(4096);
    copy(p, frames);
}

static void run_crashes(LV2_Handle handle, uint32_t frames) {
    Plugin *p = handle;
    if (++p->runs == 10) raise(SIGSEGV);
    copy(p, frames);
}

static void run_absurd(LV2_Handle handle, uint32_t frames) {
    Plugin *p = handle;
    copy(p, frames);
    for (uint32_t i = 0; i < frames; i++) {
        if ((p->runs + i) % 100 == 0) p->out[i] = 6e32f;
    }
    p->runs += frames;
}

static void cleanup(LV2_Handle handle) {
    free(((Plugin *)handle)->scratch);
    free(handle);
}

static const LV2_Descriptor descriptors[] = {
    {"urn:detent:test:copies", instantiate, connect_port, NULL, run_copies, NULL, cleanup, NULL},
    {"urn:detent:test:allocates", instantiate, connect_port, NULL, run_allocates, NULL, cleanup, NULL},
    {"urn:detent:test:allocates-once", instantiate, connect_port, NULL, run_allocates_once, NULL, cleanup, NULL},
    {"urn:detent:test:crashes", instantiate, connect_port, NULL, run_crashes, NULL, cleanup, NULL},
    {"urn:detent:test:absurd", instantiate, connect_port, NULL, run_absurd, NULL, cleanup, NULL},
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
