#include "ReferenceSVF.h"

void reference_svf_process(const float *const *input, float *const *output, int channels,
                           int frames, float a1, float a2, float a3, float gain,
                           reference_svf_state *states) {
    for (int c = 0; c < channels; c++) {
        const float *x = input[c];
        float *y = output[c];
        float ic1 = states[c].ic1;
        float ic2 = states[c].ic2;
        for (int i = 0; i < frames; i++) {
            float v3 = x[i] - ic2;
            float v1 = a1 * ic1 + a2 * v3;
            float v2 = ic2 + a2 * ic1 + a3 * v3;
            ic1 = 2.0f * v1 - ic1;
            ic2 = 2.0f * v2 - ic2;
            y[i] = v2 * gain;
        }
        states[c].ic1 = ic1;
        states[c].ic2 = ic2;
    }
}
