#ifndef PROCESS_SPAWN_H
#define PROCESS_SPAWN_H

#include <spawn.h>

/// Adds to `actions` the closing, in the child, of every descriptor numbered `lowest` or
/// more, whether or not it was opened close-on-exec: a child started with these actions
/// holds only the descriptors the actions give it below `lowest`. Returns 0, or an errno value.
int process_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
