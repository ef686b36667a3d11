// A VST3 library's entry: `ModuleEntry` (Linux's, given the library's handle) and the plug-in
// factory, with the classes it describes. `ModuleExit` is never called: a module stays
// entered while its library is loaded, which is for as long as the process runs.

#include "Vst3Instance.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef bool (*ModuleEntryFunction)(void *);
typedef void *(*FactoryFunction)(void);

bool detent_vst3_module_enter(void *library, char *reason, size_t size) {
    ModuleEntryFunction entry = (ModuleEntryFunction)dlsym(library, "ModuleEntry");
    if (!dlsym(library, "GetPluginFactory")) {
        snprintf(reason, size, "it has no GetPluginFactory (not a VST3 module)");
        return false;
    }
    if (entry && !entry(library)) {
        snprintf(reason, size, "its ModuleEntry failed");
        return false;
    }
    return true;
}

DetentVst3Module *detent_vst3_module_open(void *library, char *reason, size_t size) {
    FactoryFunction factoryFunction = (FactoryFunction)dlsym(library, "GetPluginFactory");
    if (!factoryFunction) {
        snprintf(reason, size, "it has no GetPluginFactory (not a VST3 module)");
        return NULL;
    }
    void *factory = factoryFunction();
    if (!factory) {
        snprintf(reason, size, "GetPluginFactory gave no factory");
        return NULL;
    }
    DetentVst3Module *module = calloc(1, sizeof *module);
    if (!module) {
        snprintf(reason, size, "out of memory");
        return NULL;
    }
    module->factory = factory;
    module->factory2 = vst3_query(factory, v3_plugin_factory_2_iid);
    module->factory3 = vst3_query(factory, v3_plugin_factory_3_iid);
    if (VST3_TABLE(factory, Vst3FactoryTable)->factory.get_factory_info(factory, &module->info) != V3_OK) {
        memset(&module->info, 0, sizeof module->info);
    }
    if (module->factory3) {
        VST3_TABLE(module->factory3, Vst3FactoryTable)->factory3.set_host_context(module->factory3, vst3_host_application());
    }
    return module;
}

int32_t detent_vst3_module_class_count(const DetentVst3Module *module) {
    int32_t count = VST3_TABLE(module->factory, Vst3FactoryTable)->factory.num_classes(module->factory);
    return count > 0 ? count : 0;
}

/// Copies a fixed-size field that may lack its terminating zero.
static void copy_text(char *out, size_t size, const char *text, size_t length) {
    size_t n = strnlen(text, length);
    if (n >= size) n = size - 1;
    memcpy(out, text, n);
    out[n] = 0;
}

static void hex(const v3_tuid id, char out[33]) {
    static const char digits[] = "0123456789ABCDEF";
    for (int i = 0; i < 16; i++) {
        out[2 * i] = digits[id[i] >> 4];
        out[2 * i + 1] = digits[id[i] & 15];
    }
    out[32] = 0;
}

bool detent_vst3_module_class(const DetentVst3Module *module, int32_t index, DetentVst3Class *out) {
    memset(out, 0, sizeof *out);
    struct v3_class_info info;
    if (VST3_TABLE(module->factory, Vst3FactoryTable)->factory.get_class_info(module->factory, index, &info) != V3_OK) return false;
    hex(info.class_id, out->identifier);
    copy_text(out->category, sizeof out->category, info.category, sizeof info.category);
    copy_text(out->name, sizeof out->name, info.name, sizeof info.name);
    copy_text(out->vendor, sizeof out->vendor, module->info.vendor, sizeof module->info.vendor);
    if (module->factory3) {
        struct v3_class_info_3 info3;
        if (VST3_TABLE(module->factory3, Vst3FactoryTable)->factory3.get_class_info_utf16(module->factory3, index, &info3) == V3_OK) {
            vst3_utf8(info3.name, 64, out->name, sizeof out->name);
            if (info3.vendor[0]) vst3_utf8(info3.vendor, 64, out->vendor, sizeof out->vendor);
            vst3_utf8(info3.version, 64, out->version, sizeof out->version);
            copy_text(out->subcategories, sizeof out->subcategories, info3.sub_categories, sizeof info3.sub_categories);
            return true;
        }
    }
    if (module->factory2) {
        struct v3_class_info_2 info2;
        if (VST3_TABLE(module->factory2, Vst3FactoryTable)->factory2.get_class_info_2(module->factory2, index, &info2) == V3_OK) {
            copy_text(out->name, sizeof out->name, info2.name, sizeof info2.name);
            if (info2.vendor[0]) copy_text(out->vendor, sizeof out->vendor, info2.vendor, sizeof info2.vendor);
            copy_text(out->version, sizeof out->version, info2.version, sizeof info2.version);
            copy_text(out->subcategories, sizeof out->subcategories, info2.sub_categories, sizeof info2.sub_categories);
        }
    }
    return true;
}
