/* The sim backend's extension table: how kernels compiled in a user's translation unit run on
 * the sim plugin (libak_sim.so). The plugin exports `ak_sim_api_table_v1` (a const ak_sim_api_v1);
 * the headers find it through ak::backend_extension("sim", AK_SIM_API_SYMBOL).
 *
 * A launch hands the engine a body function and the kernel object; the engine calls the body
 * once per work-item, each on its own fiber, with that item's ak_sim_item_v1. The body (in the
 * user's code, ak/backends/sim/context.hpp) calls back for every synchronising operation. No
 * exception crosses this table: errors are messages. Plain C, as the backend table is. */
#ifndef AK_BACKENDS_SIM_SIM_API_H
#define AK_BACKENDS_SIM_SIM_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AK_SIM_API_VERSION 2u
#define AK_SIM_API_SYMBOL "ak_sim_api_table_v1"

/* One work-item, as its fiber sees it. Filled by the engine before the body runs. */
typedef struct ak_sim_item_v1 {
  int64_t global_id[3];
  int64_t global_size[3];
  int64_t group_id[3];
  int64_t num_groups[3];
  int32_t local_id[3];
  int32_t local_size[3];
  int32_t rank;
  int32_t sub_group_width;
  int32_t sub_group_id;
  int32_t sub_group_lane;
  int32_t num_sub_groups;
  int32_t sub_group_complete; /* 0: the group's last sub-group is partial, sub-group ops fail */
  uint64_t capabilities;      /* the device's ak_capability_v1 bits */
  unsigned char* local_memory;
  uint64_t local_bytes;
  const char* kernel_name;
  const char* device_name;
  void* engine; /* the engine's own record of this item */
} ak_sim_item_v1;

typedef struct ak_sim_launch_v1 {
  const char* name;
  int32_t rank;
  int64_t global_size[3];
  int64_t group_size[3];
  uint64_t local_bytes;
  /* Runs the kernel for one item; never throws (it reports failures with `fail`). */
  void (*body)(void* kernel, ak_sim_item_v1* item);
  void* kernel;
} ak_sim_launch_v1;

enum ak_sim_status_v1 { AK_SIM_OK = 0, AK_SIM_BAD_LAUNCH = 1, AK_SIM_KERNEL_FAILED = 2 };

/* Sub-group operations, for matching the lanes that meet in one. */
enum ak_sim_sub_group_op_v1 {
  AK_SIM_SHUFFLE = 1,
  AK_SIM_SHUFFLE_UP = 2,
  AK_SIM_SHUFFLE_DOWN = 3,
  AK_SIM_SHUFFLE_XOR = 4,
  AK_SIM_BALLOT = 5,
  AK_SIM_COLLECTIVE = 6, /* a reduction or scan of the sub-group, in one exchange */
  AK_SIM_MATCH = 7       /* sub_group_match_any */
};

typedef struct ak_sim_api_v1 {
  uint32_t version; /* AK_SIM_API_VERSION */
  /* Runs a launch on sim device `device` (its index within the backend) to completion. Returns
   * an ak_sim_status_v1; on failure *message holds why (valid until the next launch on this
   * thread). */
  int32_t (*launch)(int64_t device, const ak_sim_launch_v1* launch, const char** message);
  /* A work-group barrier. Returns nonzero when the launch is being aborted: the body must unwind
   * and return without touching anything. */
  int32_t (*barrier)(ak_sim_item_v1* item, const char* file, int32_t line);
  /* Every lane of the sub-group deposits `bytes` bytes; returns the sub-group's values, lane by
   * lane (`bytes` apart), once every lane has deposited; NULL when the launch is being aborted.
   * Valid until this lane's next sub-group operation. */
  const void* (*sub_group_exchange)(ak_sim_item_v1* item, const void* value, uint32_t bytes,
                                    int32_t op, const char* file, int32_t line);
  /* Called by every atomic, with the address it works on (the launch's counts tell local from
   * global atomics by it): nonzero when the launch is being aborted. Lets other items of the
   * group run now and then, so that an item may wait for another with atomics. (Version 2: in
   * version 1 it took no address.) */
  int32_t (*poll)(ak_sim_item_v1* item, const void* address);
  /* Records a failure of this item (the launch fails with the first one); the body then returns. */
  void (*fail)(ak_sim_item_v1* item, const char* message);
  /* The seed that shuffles work-items and groups (0: launch order, no shuffling). The default
   * comes from AK_SIM_SEED. */
  void (*set_seed)(uint64_t seed);
  uint64_t (*seed)(void);
} ak_sim_api_v1;

#ifdef __cplusplus
}
#endif

#endif /* AK_BACKENDS_SIM_SIM_API_H */
