/* The C interface between ak's runtime and a backend.
 *
 * Every backend, the built-in cpu one included, is reached through this one interface: a plugin is
 * a shared library (libak_<name>.so) that exports one versioned entry point,
 *
 *     const char* ak_backend_entry_v1(uint32_t host_abi_version, ak_backend_v1* out);
 *
 * which fills *out and returns NULL, or returns a message saying why the backend cannot run here
 * ("no CUDA driver", "driver too old: 11.2 < 12.0"). Functions of the table return NULL on success
 * or an error message that stays valid until the next call into the same backend.
 *
 * Plain C so that a plugin built with another compiler (nvcc's host compiler) or another standard
 * library still loads. Bump AK_BACKEND_ABI_VERSION on any change of layout or meaning. */
#ifndef AK_PLUGIN_BACKEND_API_H
#define AK_PLUGIN_BACKEND_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AK_BACKEND_ABI_VERSION 1u
#define AK_BACKEND_ENTRY_SYMBOL "ak_backend_entry_v1"

/* The value of a tuning field that an entry leaves to lower layers. */
#define AK_TUNING_UNSET INT64_MIN

enum ak_device_kind_v1 { AK_DEVICE_CPU = 0, AK_DEVICE_GPU = 1, AK_DEVICE_SIMULATOR = 2 };

/* Capabilities: facts of a device that decide which algorithms run correctly on it. */
enum ak_capability_v1 {
  AK_CAP_DEVICE_SCOPE_FENCE = 1u << 0, /* a fence that orders memory across work-groups */
  AK_CAP_FORWARD_PROGRESS = 1u << 1,   /* a waiting group cannot starve an earlier one */
  AK_CAP_ATOMICS64 = 1u << 2,          /* 64-bit atomics on global memory */
  AK_CAP_FLOAT64 = 1u << 3,            /* double precision arithmetic */
  AK_CAP_HOST_ACCESSIBLE = 1u << 4,    /* the host can dereference device pointers */
  AK_CAP_SUB_GROUPS = 1u << 5          /* sub-group (warp) shuffles, ballots and scans */
};

typedef struct ak_device_desc_v1 {
  char name[64];          /* "<backend>:<index>": "cpu:0", "cuda:1" */
  char device_class[64];  /* the class tunings are registered for: "cpu", "sm_90" */
  char description[128];  /* model, for people: "NVIDIA H200" */
  int32_t kind;           /* ak_device_kind_v1 */
  int64_t compute_units;  /* cores, or streaming multiprocessors */
  int64_t l1_cache_bytes; /* per compute unit */
  int64_t l2_cache_bytes;
  int64_t l3_cache_bytes; /* 0 where there is none */
  int64_t memory_bytes;
  /* GPU-like devices; 0 on a cpu */
  int64_t sub_group_width;
  int64_t local_memory_bytes; /* per work-group */
  int64_t max_group_size;
  uint64_t capabilities; /* ak_capability_v1 bits */
} ak_device_desc_v1;

/* One tuning default: the fields of a hook's tuning struct for the devices of one class (or "*")
 * and one dtype, dtype class ("signed", "unsigned", "float", "bool") or "*". The type's name and
 * field count are checked against what the hook declares. */
typedef struct ak_tuning_default_v1 {
  const char* hook;         /* "reduce" */
  const char* type_name;    /* "ak::reduce_tuning" */
  uint32_t field_count;     /* number of int64 fields in values */
  const int64_t* values;    /* AK_TUNING_UNSET leaves a field to lower layers */
  const char* device_class; /* "*" or a device class of this backend */
  const char* dtype;        /* "*", a dtype name or a dtype class */
} ak_tuning_default_v1;

/* What the runtime offers a backend while it registers its tunings. */
typedef struct ak_host_v1 {
  uint32_t abi_version;
  void* context;
  const char* (*register_tuning_default)(void* context, const ak_tuning_default_v1* entry);
} ak_host_v1;

typedef struct ak_backend_v1 {
  uint32_t abi_version; /* AK_BACKEND_ABI_VERSION that the backend was built with */
  const char* name;     /* "cpu", "cuda"; the prefix of its device names */
  void* state;
  const char* (*device_count)(void* state, int64_t* count);
  const char* (*describe_device)(void* state, int64_t index, ak_device_desc_v1* out);
  /* Called once, after the devices are described: registers the backend's tuning defaults. */
  const char* (*register_tunings)(void* state, const ak_host_v1* host);
  const char* (*allocate)(void* state, int64_t device, size_t bytes, size_t alignment, void** out);
  void (*deallocate)(void* state, int64_t device, void* p, size_t bytes, size_t alignment);
  const char* (*copy_to_host)(void* state, int64_t device, void* host_dst, const void* src,
                              size_t bytes);
  const char* (*copy_from_host)(void* state, int64_t device, void* dst, const void* host_src,
                                size_t bytes);
  void (*shutdown)(void* state); /* may be NULL */
  /* The device's native queue (a cudaStream_t), handed to a user's ak::memory_resource; may be
   * NULL, and may return NULL, on backends without one. */
  void* (*native_queue)(void* state, int64_t device);
} ak_backend_v1;

typedef const char* (*ak_backend_entry_v1_fn)(uint32_t host_abi_version, ak_backend_v1* out);

#ifdef __cplusplus
}
#endif

#endif /* AK_PLUGIN_BACKEND_API_H */
