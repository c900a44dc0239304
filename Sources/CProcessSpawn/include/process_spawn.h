#ifndef PROCESS_SPAWN_H
#define PROCESS_SPAWN_H

#include <spawn.h>

/// Adds to `actions` the closing, in the child, of every descriptor numbered `lowest` or
/// more, whether or not it was opened close-on-exec: a child started with these actions
/// holds only the descriptors the actions give it below `lowest`. Returns 0, or an errno value.
int process_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Opens a pipe whose two ends are close-on-exec (`pipe2` with `O_CLOEXEC`): `ends[0]` reads
/// and `ends[1]` writes. Returns 0, or -1 with errno set.
int process_spawn_pipe(int ends[2]);

#endif
