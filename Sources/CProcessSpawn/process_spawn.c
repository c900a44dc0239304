// glibc declares posix_spawn_file_actions_addclosefrom_np (2.34 and later) and pipe2 only to
// GNU sources; Swift's Glibc module is built without _GNU_SOURCE, so they are reached from here.
#define _GNU_SOURCE
#include "process_spawn.h"
#include <fcntl.h>
#include <unistd.h>

int process_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int process_spawn_pipe(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}
