/* Runs each plug-in of a LADSPA library at its default controls on a second of noise, twice
   with an output buffer of its own and once in place (each output in its input's buffer, as
   ladspa-sdk's applyplugin runs it), in 2048-frame runs. Prints, per plug-in with audio in
   and out: its label, "in-place" when only the in-place run differs (the plug-in is broken in
   place without saying INPLACE_BROKEN), "varies" when two runs alike differ (it draws random
   numbers), else "same"; then the largest difference and the output's peak.
   Usage: ladspa-in-place LIBRARY.so [LABEL] */
#include <ladspa.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static float def(const LADSPA_PortRangeHint *h, float sr) {
  int d = h->HintDescriptor; float lo = h->LowerBound, hi = h->UpperBound;
  if (LADSPA_IS_HINT_SAMPLE_RATE(d)) { lo *= sr; hi *= sr; }
  int lg = LADSPA_IS_HINT_LOGARITHMIC(d) && lo > 0 && hi > 0;
  switch (d & LADSPA_HINT_DEFAULT_MASK) {
  case LADSPA_HINT_DEFAULT_MINIMUM: return lo;
  case LADSPA_HINT_DEFAULT_LOW: return lg ? expf(logf(lo)*0.75f+logf(hi)*0.25f) : lo*0.75f+hi*0.25f;
  case LADSPA_HINT_DEFAULT_MIDDLE: return lg ? expf(logf(lo)*0.5f+logf(hi)*0.5f) : lo*0.5f+hi*0.5f;
  case LADSPA_HINT_DEFAULT_HIGH: return lg ? expf(logf(lo)*0.25f+logf(hi)*0.75f) : lo*0.25f+hi*0.75f;
  case LADSPA_HINT_DEFAULT_MAXIMUM: return hi;
  case LADSPA_HINT_DEFAULT_0: return 0; case LADSPA_HINT_DEFAULT_1: return 1;
  case LADSPA_HINT_DEFAULT_100: return 100; case LADSPA_HINT_DEFAULT_440: return 440;
  default: return LADSPA_IS_HINT_BOUNDED_BELOW(d) ? lo : 0; }
}
#define N 49152
#define B 2048
static void run(const LADSPA_Descriptor *d, int inplace, float **out, int *nout) {
  LADSPA_Handle p = d->instantiate(d, 48000);
  static float ctl[256]; static float in[16][N]; int ni = 0, no = 0;
  unsigned seed = 1;
  for (unsigned long i = 0; i < d->PortCount; i++) {
    LADSPA_PortDescriptor pd = d->PortDescriptors[i];
    if (LADSPA_IS_PORT_CONTROL(pd)) { ctl[i] = LADSPA_IS_PORT_INPUT(pd) ? def(&d->PortRangeHints[i], 48000) : 0; d->connect_port(p, i, &ctl[i]); }
  }
  for (int c = 0; c < 16; c++) for (int k = 0; k < N; k++) { seed = seed * 1103515245 + 12345; in[c][k] = ((seed >> 8) & 0xFFFF) / 65536.0f - 0.5f; }
  int ins[16], outs[16];
  for (unsigned long i = 0; i < d->PortCount; i++) { LADSPA_PortDescriptor pd = d->PortDescriptors[i];
    if (LADSPA_IS_PORT_AUDIO(pd)) { if (LADSPA_IS_PORT_INPUT(pd)) ins[ni++] = i; else outs[no++] = i; } }
  for (int o = 0; o < no; o++) out[o] = calloc(N, sizeof(float));
  for (int c = 0; c < ni; c++) d->connect_port(p, ins[c], in[c]);
  for (int o = 0; o < no; o++) d->connect_port(p, outs[o], out[o]);
  if (d->activate) d->activate(p);
  for (int s = 0; s < N; s += B) {
    for (int c = 0; c < ni; c++) d->connect_port(p, ins[c], in[c] + s);
    for (int o = 0; o < no; o++) {
      float *buf = out[o] + s;
      if (inplace && o < ni) { memcpy(buf, in[o] + s, B * sizeof(float)); d->connect_port(p, ins[o], buf); }
      d->connect_port(p, outs[o], buf);
    }
    d->run(p, B);
  }
  *nout = no;
  if (d->deactivate) d->deactivate(p);
  d->cleanup(p);
}
int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_NOW); if (!h) return 1;
  LADSPA_Descriptor_Function fn = dlsym(h, "ladspa_descriptor");
  if (!fn) return 1;
  for (unsigned long i = 0; fn(i); i++) {
    const LADSPA_Descriptor *d = fn(i);
    if (argc > 2 && strcmp(argv[2], d->Label)) continue;
    int ins = 0, outs = 0;
    for (unsigned long p = 0; p < d->PortCount; p++) if (LADSPA_IS_PORT_AUDIO(d->PortDescriptors[p])) {
      if (LADSPA_IS_PORT_INPUT(d->PortDescriptors[p])) ins++; else outs++; }
    if (ins == 0 || outs == 0 || ins > 16 || outs > 16 || d->PortCount > 256) continue;
    float *a[16], *b[16], *c[16]; int na, nb, nc;
    run(d, 0, a, &na); run(d, 0, b, &nb); run(d, 1, c, &nc);
    double again = 0, inplace = 0, peak = 0;
    for (int o = 0; o < na; o++) for (int k = 0; k < N; k++) {
      again = fmax(again, fabs(a[o][k] - b[o][k])); inplace = fmax(inplace, fabs(a[o][k] - c[o][k])); peak = fmax(peak, fabs(a[o][k])); }
    printf("%s\t%s\t%g\t%g\n", d->Label, again > 1e-6 ? "varies" : inplace > 1e-6 ? "in-place" : "same", fmax(again, inplace), peak);
    for (int o = 0; o < na; o++) { free(a[o]); free(b[o]); free(c[o]); }
  }
  return 0;
}
