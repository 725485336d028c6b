#!/bin/sh
# Runs one host test command under the environment's CTNN_TEST_WRAPPER, split into words, or
# directly when it is empty or unset. The memcheck test preset sets it to valgrind, so the default
# build's tests run under memcheck without a build of their own.
exec ${CTNN_TEST_WRAPPER-} "$@"
