#ifndef DETENT_REFERENCE_SVF_H
#define DETENT_REFERENCE_SVF_H

/// The benchmark's peer: the same trapezoidal state-variable lowpass and gain as Detent's
/// engine, written as the plain scalar loop one would write first in C, one channel after
/// another, with fixed coefficients. No smoothing, no NaN guard, no meters.
typedef struct {
    float ic1;
    float ic2;
} reference_svf_state;

void reference_svf_process(const float *const *input, float *const *output, int channels,
                           int frames, float a1, float a2, float a3, float gain,
                           reference_svf_state *states);

#endif
