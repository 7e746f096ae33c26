// The library's GPU kernels (include/ak/gpu), instantiated for device code: none yet.
