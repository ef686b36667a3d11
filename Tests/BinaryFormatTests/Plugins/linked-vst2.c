// A VST2 plug-in that moves one of its own parameters, for the tests of changes a plug-in makes
// itself: it multiplies its mono input by `Gain`, and whenever the host sets the gain it sets
// `Follow` to half of it and tells the host (`audioMasterAutomate`), as a plug-in with linked
// controls does. It also tells the host the gain it was just given, as some plug-ins echo
// every change: the host must take that for its own value, not the plug-in's.
// Built with Detent's VST2 declarations (Sources/CVst2) over DPF's BSD header.
#include "Vst2Interface.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    vst_effect effect;
    Vst2HostCallback host;
    float gain, follow;
} Linked;

static intptr_t dispatch(vst_effect *effect, VST_EFFECT_OPCODE opcode, int32_t index, intptr_t value, void *ptr, float opt) {
    Linked *linked = (Linked *)effect;
    (void)value, (void)opt;
    switch ((int)opcode) {
    case vst2_close:
        free(linked);
        return 1;
    case vst2_parameter_name:
        strcpy(ptr, index == 0 ? "Gain" : "Follow");
        return 1;
    case vst2_parameter_label:
        strcpy(ptr, "");
        return 1;
    case vst2_parameter_display:
        snprintf(ptr, 8, "%.3f", index == 0 ? linked->gain : linked->follow);
        return 1;
    case vst2_effect_name:
    case vst2_product_string:
        strcpy(ptr, "Detent Linked Test");
        return 1;
    case vst2_vendor_string:
        strcpy(ptr, "Detent tests");
        return 1;
    case vst2_vendor_version:
        return 1;
    default:
        return 0;
    }
}

static void set_parameter(vst_effect *effect, uint32_t index, float value) {
    Linked *linked = (Linked *)effect;
    if (index == 1) {
        linked->follow = value;
    } else if (index == 0) {
        linked->gain = value;
        linked->host(effect, vst2_host_automate, 0, 0, NULL, value);  // the echo
        if (linked->follow != value / 2) {
            linked->follow = value / 2;
            linked->host(effect, vst2_host_automate, 1, 0, NULL, linked->follow);
        }
    }
}

static float get_parameter(vst_effect *effect, uint32_t index) {
    Linked *linked = (Linked *)effect;
    return index == 0 ? linked->gain : linked->follow;
}

static void process(vst_effect *effect, const float *const *inputs, float **outputs, int32_t frames) {
    Linked *linked = (Linked *)effect;
    for (int32_t i = 0; i < frames; i++) outputs[0][i] = inputs[0][i] * linked->gain;
}

__attribute__((visibility("default"))) vst_effect *VSTPluginMain(Vst2HostCallback host) {
    Linked *linked = calloc(1, sizeof *linked);
    linked->host = host;
    linked->gain = 1;
    linked->follow = 0.5f;
    vst_effect *e = &linked->effect;
    e->magic_number = VST_MAGICNUMBER;
    e->control = dispatch;
    e->process = process;
    e->process_float = process;
    e->set_parameter = set_parameter;
    e->get_parameter = get_parameter;
    e->num_programs = 0;
    e->num_params = 2;
    e->num_inputs = 1;
    e->num_outputs = 1;
    e->flags = vst2_flag_can_replace;
    e->unique_id = 0x44744c6b;  // 'DtLk'
    e->version = 1;
    return e;
}
