/* CLAP binaries that fail while a host reads them, for the scan's tests: built with
   -DCRASH, the entry's init dereferences NULL; with -DHANG, it never returns; with neither,
   the library has no clap_entry at all. Nothing of CLAP's headers is needed for that. */
#include <stddef.h>

#if defined(CRASH) || defined(HANG)
static _Bool init(const char *path) {
    (void)path;
#ifdef CRASH
    volatile int *nothing = NULL;
    return *nothing != 0;
#else
    for (;;) {}
#endif
}

struct entry {
    unsigned major, minor, revision;
    _Bool (*init)(const char *);
    void (*deinit)(void);
    const void *(*get_factory)(const char *);
};

static const void *factory(const char *id) { (void)id; return NULL; }

const struct entry clap_entry = {1, 1, 1, init, NULL, factory};
#else
int not_a_plugin = 1;
#endif
