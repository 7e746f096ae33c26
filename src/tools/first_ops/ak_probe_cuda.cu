// ak_first_ops_probe_cuda: the ak probe of `ak first-ops` compiled by nvcc, so that its templates
// (broadcast, take, any with its predicate) run on cuda devices. The source is ak_probe.cpp's.
#include "ak_probe.cpp"
