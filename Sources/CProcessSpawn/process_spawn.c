// glibc declares posix_spawn_file_actions_addclosefrom_np (2.34 and later) only to GNU
// sources; Swift's Glibc module is built without _GNU_SOURCE, so it is reached from here.
#define _GNU_SOURCE
#include "process_spawn.h"

int process_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
