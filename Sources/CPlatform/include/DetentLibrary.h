#ifndef DETENT_LIBRARY_H
#define DETENT_LIBRARY_H

#include <pthread.h>
#include <stddef.h>

/// A C library opened when it is first needed rather than when the program starts.
///
/// Every library a program links is mapped, relocated and initialised before `main`, used or
/// not: JACK (with libstdc++ and Berkeley DB), lilv (with serd, sord and sratom), liblo and
/// libebur128 cost a render that needs none of them about 2 ms, more than SoX's whole start.
/// The modules over those libraries (CJack, CLilv, CLo, CEbur128) therefore define each
/// function they use themselves, as a call through a pointer that `detent_library_load`
/// fills with `dlsym` from the real library, opened by its soname (so `pw-jack`'s
/// LD_LIBRARY_PATH still chooses PipeWire's libjack).
///
/// The lists of those functions are X-macros in each module's `.c` file, one line per
/// function, with its prototype and argument names. Calling a function not in the list fails
/// at link time ("undefined reference"); `Scripts/library-calls NAME…` prints the lines to add.

/// One function or variable: its name in the library and where its address goes.
typedef struct {
    const char *name;
    void **slot;
} DetentSymbol;

/// A library and what is taken from it. `loaded` turns 1 (release) once every slot is filled.
typedef struct {
    const char *soname;
    /// What the library is for, in the one line that says it cannot be loaded.
    const char *purpose;
    const DetentSymbol *symbols;
    size_t count;
    pthread_mutex_t lock;
    int loaded;
    char problem[512];
} DetentLibrary;

#define DETENT_LIBRARY(soname, purpose, symbols) \
    { (soname), (purpose), (symbols), sizeof(symbols) / sizeof((symbols)[0]), PTHREAD_MUTEX_INITIALIZER, 0, "" }

/// Opens the library and fills every slot, once per process (later calls return at once).
/// Returns 0, or -1 with the reason in `library->problem` (the loader's message, or the first
/// missing symbol). Not for the audio thread: it locks and opens files.
int detent_library_load(DetentLibrary *library);

/// Loads the library unless it is loaded. A call before any explicit load (a front end that
/// forgot) that cannot load prints one line on stderr and exits with status 1: nothing can
/// go on without the function. Once loaded, this is one atomic load, so the calls the audio
/// thread makes through a loaded library stay free of locks and system calls.
void detent_library_require_slow(DetentLibrary *library);

static inline void detent_library_require(DetentLibrary *library) {
    if (__builtin_expect(!__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE), 0)) detent_library_require_slow(library);
}

/// Everything a module over a library defines, from its list: a pointer per function, the
/// symbol table, the library, each function as a call through its pointer, and `load`, which
/// opens the library and returns NULL or why it cannot be loaded. The list is an X-macro:
/// `F(ret, name, (params), (args))` for a function that returns a value, `V(name, (params),
/// (args))` for one that does not. Further `{name, slot}` symbol entries (variables, a
/// variadic function written by hand) may follow, each with a comma after it.
#define DETENT_OPENED_ON_FIRST_USE(list, soname, purpose, load, ...) \
    list(DETENT_POINTER_F, DETENT_POINTER_V) \
    static const DetentSymbol symbols[] = {list(DETENT_SYMBOL_F, DETENT_SYMBOL_V) __VA_ARGS__}; \
    static DetentLibrary library = DETENT_LIBRARY(soname, purpose, symbols); \
    list(DETENT_CALL_F, DETENT_CALL_V) \
    const char *load(void) { return detent_library_load(&library) == 0 ? NULL : library.problem; }

#define DETENT_POINTER_F(ret, name, params, args) static ret(*detent_call_##name) params;
#define DETENT_POINTER_V(name, params, args) static void(*detent_call_##name) params;
#define DETENT_SYMBOL_F(ret, name, params, args) {#name, (void **)&detent_call_##name},
#define DETENT_SYMBOL_V(name, params, args) {#name, (void **)&detent_call_##name},
#define DETENT_CALL_F(ret, name, params, args) \
    ret name params { detent_library_require(&library); return detent_call_##name args; }
#define DETENT_CALL_V(name, params, args) \
    void name params { detent_library_require(&library); detent_call_##name args; }

#endif
